// Prints the SQL TypeORM would run to bring a migrated database to the entities: the body of the next
// migration (empty when migrations and entities agree). Run: npx tsx scripts/schema-log.mts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../engine/core/db.js';
import { ENTITIES } from '../engine/entities.js';
import { MIGRATIONS } from '../engine/migrations/index.js';
const dir = mkdtempSync(join(tmpdir(), 'bs-schema-'));
const ds = await openDatabase(dir, { entities: ENTITIES as never, migrations: MIGRATIONS });
const log = await ds.driver.createSchemaBuilder().log();
for (const q of log.upQueries) console.log(JSON.stringify(q.query));
await ds.destroy();
rmSync(dir, { recursive: true, force: true });
