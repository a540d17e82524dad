import { DuckDBInstance } from '@duckdb/node-api';

/**
 * Rows of a query over an app's data file (DuckDB), read by an instance of the test's own, read-only:
 * what the file holds, independent of the engine that wrote it and of its expression language.
 */
export async function queryAppData(file: string, sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      return (await connection.runAndReadAll(sql))
        .getRowsJS()
        .map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
