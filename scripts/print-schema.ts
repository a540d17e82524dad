// Dev aid: prints the SQL that brings an empty database to the entities' schema, for writing a migration.
import { DataSource } from 'typeorm';
import { ENTITIES } from '../engine/entities.js';

async function main() {
  const ds = new DataSource({ type: 'sqlite', database: ':memory:', entities: ENTITIES });
  await ds.initialize();
  const sql = await ds.driver.createSchemaBuilder().log();
  for (const q of sql.upQueries) console.log(JSON.stringify(q.query) + ',');
  await ds.destroy();
}
void main();
