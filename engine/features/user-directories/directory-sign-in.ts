import type { OpContext } from '../../ops/context.js';
import { EngineError } from '../../core/errors.js';
import type { UserRow } from '../../model/users.entity.js';
import { UserDirectory } from '../../model/user-directories.entity.js';
import { DirectoryProblem, directorySettings, verifyDirectoryPassword } from './directory-reader.js';

// People synchronized from a directory sign in with their directory password: the directory is
// asked at each sign-in (nothing of the password is kept here), so a password changed or an
// account locked there takes effect at once. One who was given a password of their own here (by an
// invitation) signs in with that instead.

/** Whether a synchronized user may sign in with `password`, asked of their directory. */
export async function directoryPasswordHolds(
  ctx: OpContext,
  user: Pick<UserRow, 'id' | 'directoryId' | 'directoryKey'>,
  password: string,
): Promise<boolean> {
  if (!user.directoryId || !user.directoryKey) return false;
  const dir = await ctx.db.getRepository(UserDirectory).findOneBy({ id: user.directoryId });
  if (!dir?.isActive) return false;
  try {
    return await verifyDirectoryPassword(
      directorySettings(dir, (sealed) => ctx.secrets.open(sealed)),
      user.directoryKey,
      password,
    );
  } catch (e) {
    if (!(e instanceof DirectoryProblem)) throw e;
    // The person can do nothing about it; the administrator can, from the log.
    ctx.log.warn('A directory could not check a sign-in', {
      directoryId: dir.id,
      userId: user.id,
      field: e.field,
      error: e.message,
    });
    throw new EngineError(
      503,
      `Your directory "${dir.name}" could not be reached to check your password; try again later or ask your administrator`,
    );
  }
}
