// `npm run schema:snapshot`: writes what the migrations build on an empty database
// (engine/migrations/schema-snapshot.generated.ts), which a first start makes at once. Run it after
// adding a migration; tests/engine/schema-snapshot.test.ts fails until it is run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../engine/core/db.js';
import { snapshotOf } from '../engine/core/schema-snapshot.js';
import { ENTITIES } from '../engine/entities.js';
import { MIGRATIONS } from '../engine/migrations/index.js';
import { writeGenerated } from './write-generated.js';

export const SNAPSHOT_FILE = join(__dirname, '..', 'engine', 'migrations', 'schema-snapshot.generated.ts');

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bs-schema-'));
  try {
    const ds = await openDatabase(dir, { entities: ENTITIES, migrations: MIGRATIONS });
    const snapshot = await snapshotOf(ds, MIGRATIONS.length);
    await ds.destroy();
    await writeGenerated(
      SNAPSHOT_FILE,
      [
        'Written by `npm run schema:snapshot` from the migrations: never edit by hand. A SchemaSnapshot',
        '(engine/core/schema-snapshot.ts), named by shape: the migrations import nothing else of the engine.',
      ],
      'SCHEMA_SNAPSHOT',
      snapshot,
    );
    console.log(`Wrote ${SNAPSHOT_FILE} (${snapshot.migrations} migrations)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
void main();
