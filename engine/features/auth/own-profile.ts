// One's own details (the profile): name, e-mail, language and time zone. Anyone signed in may
// change their own; a directory's people keep the name and e-mail their directory gives them, and
// changing the address one signs in with asks for the current password, as changing the password does.
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { conflict, fieldError } from '../../core/errors.js';
import { User } from '../../model/users.entity.js';
import { userDto } from '../users/users.rules.js';
import { checkTimeZone } from '../../core/time-zone.js';

export interface ProfileChange {
  firstName: string;
  lastName: string;
  email: string;
  isoLanguage: string | null;
  timeZone: string | null;
  currentPassword?: string;
}

export async function updateOwnProfile(ctx: OpContext, change: ProfileChange) {
  const user = me(ctx).user;
  const email = change.email.toLowerCase();
  if (user.directoryId) {
    if (change.firstName !== user.firstName || change.lastName !== user.lastName)
      throw fieldError('body.firstName', 'comes from your user directory: change it there');
    if (email !== user.email) throw fieldError('body.email', 'comes from your user directory: change it there');
  }
  if (email !== user.email) {
    if (!user.passwordHash) throw fieldError('body.email', 'can be changed only by an administrator for your account');
    if (!change.currentPassword || !(await ctx.passwords.verify(change.currentPassword, user.passwordHash)))
      throw fieldError('body.currentPassword', 'is needed to change your e-mail: it is not your current password');
    if (await ctx.db.getRepository(User).findOneBy({ email }))
      throw conflict('Another account already uses this e-mail', [
        { field: 'body.email', message: 'is used by another account' },
      ]);
  }
  if (change.timeZone !== null) {
    try {
      checkTimeZone(change.timeZone);
    } catch (e) {
      throw fieldError('body.timeZone', (e as Error).message);
    }
  }
  const fields = {
    firstName: change.firstName,
    lastName: change.lastName,
    email,
    isoLanguage: change.isoLanguage,
    timeZone: change.timeZone,
    modifiedDate: ctx.now(),
    modifiedBy: user.id,
  };
  await ctx.db.getRepository(User).update(user.id, fields);
  return userDto(ctx, { ...user, ...fields });
}
