import type { DataSource, EntityManager } from 'typeorm';
import type { OpContext } from './context.js';
import { EngineError } from '../core/errors.js';

/**
 * The database as seen from inside one transaction: every repository, query builder and query runs
 * on the transaction's manager, and a transaction opened within joins it (its work commits or rolls
 * back with the whole). Everything else (the driver, the options a dialect check reads) is the data
 * source's own. Rules written against `ctx.db` thereby run unchanged inside a whole-aggregate command.
 */
function databaseWithin(db: DataSource, m: EntityManager): DataSource {
  const joined = (...args: unknown[]) => (args[args.length - 1] as (m: EntityManager) => Promise<unknown>)(m);
  return new Proxy(db, {
    get(target, prop, receiver) {
      switch (prop) {
        case 'manager':
          return m;
        case 'transaction':
          return joined;
        case 'getRepository':
        case 'createQueryBuilder':
        case 'query':
          return (m[prop] as (...a: unknown[]) => unknown).bind(m);
        default:
          return Reflect.get(target, prop, receiver);
      }
    },
  });
}

/**
 * Runs `fn` with a context whose every write belongs to one transaction: all of it is stored, or
 * (it throws) none of it. What a person edits as one thing is saved this way.
 */
export function inOneTransaction<T>(ctx: OpContext, fn: (tx: OpContext) => Promise<T>): Promise<T> {
  return ctx.db.transaction((m) => fn({ ...ctx, db: databaseWithin(ctx.db, m) }));
}

/**
 * Runs one part of a whole-aggregate command; a refusal is answered as the part's, its message led
 * by the part's label and its fields under the part's path ("body.recipients.0.id"), so the screen
 * shows it beside what is at fault.
 */
export async function asPart<T>(label: string, path: string, fn: () => Promise<T>, within = 'body'): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    // `within` is where the part's own fields sit in what it was given ("body", or "body.members.0").
    const at = (field: string) => (field.startsWith(within) ? `body.${path}${field.slice(within.length)}` : field);
    const details = (e.details ?? []).map((d) => ({ ...d, field: at(d.field) }));
    throw new EngineError(
      e.status,
      `${label}: ${e.message}`,
      details.length ? details : [{ field: `body.${path}`, message: e.message }],
    );
  }
}
