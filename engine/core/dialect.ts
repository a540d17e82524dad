import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';

/**
 * The entities as another database takes them. They are written for SQLite; PostgreSQL has no
 * `datetime` (timestamps there carry their zone: `timestamptz`) nor `blob` (`bytea`). Everything else
 * (varchar, text, integer, boolean, simple-json) means the same on both.
 */
export type Dialect = 'sqlite' | 'postgres';

const POSTGRES_TYPES: Record<string, EntitySchemaColumnOptions['type']> = {
  datetime: 'timestamptz',
  blob: 'bytea',
};

export function entitiesFor(dialect: Dialect, entities: EntitySchema<any>[]): EntitySchema<any>[] {
  if (dialect === 'sqlite') return entities;
  return entities.map((entity) => {
    const columns = Object.fromEntries(
      Object.entries(entity.options.columns).map(([name, column]) => {
        const type = typeof column?.type === 'string' ? POSTGRES_TYPES[column.type] : undefined;
        return [name, type ? { ...column, type } : column];
      }),
    );
    return new EntitySchema({ ...entity.options, columns });
  });
}
