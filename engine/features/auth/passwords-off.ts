import type { EngineServices } from '../../ops/context.js';
import { sql } from '../../core/sql.js';

/** Whether password sign-in is off for this user: every organization they belong to turned it off. */
export async function passwordsOffFor(s: Pick<EngineServices, 'db'>, userId: string): Promise<boolean> {
  const rows = await sql<{ on: number | boolean }>(
    s.db,
    `SELECT o."serviceAuth" AS "on" FROM organizations o
     JOIN user_organizations uo ON uo."targetId" = o.id AND uo."userId" = ?`,
    [userId],
  );
  return rows.length > 0 && rows.every((r) => !r.on);
}
