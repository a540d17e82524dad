import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { badInput } from '../../core/errors.js';
import { cellText, type RowStream } from '../data-connections/drivers/driver.js';

/** A CSV cell: quoted when it holds a separator, a quote, a line break or edge spaces. */
const cell = (v: unknown) => {
  const t = cellText(v);
  return /[",\r\n]|^\s|\s$/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};

/**
 * Writes a query's rows to a CSV file as they arrive, waiting while the disk catches up: memory
 * holds one batch whatever the result's size. Stops with a clear message past `maxRows`.
 */
export async function rowsToCsv(
  stream: RowStream,
  file: string,
  maxRows: number,
  progress: (rows: number) => void,
): Promise<number> {
  if (!stream.columns.length)
    throw badInput('The query answers no columns', [
      { field: 'query', message: 'answers no columns: a SELECT is needed' },
    ]);
  const out = createWriteStream(file, { mode: 0o600 });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let rows = 0;
  try {
    await write(`${stream.columns.map(cell).join(',')}\n`);
    for await (const batch of stream.batches) {
      rows += batch.length;
      if (rows > maxRows)
        throw badInput(`The query returned more than ${maxRows.toLocaleString('en')} rows, the most one app may hold`, [
          { field: 'query', message: `returns more than ${maxRows.toLocaleString('en')} rows: narrow it or aggregate` },
        ]);
      await write(batch.map((r) => r.map(cell).join(',')).join('\n') + '\n');
      progress(rows);
    }
  } finally {
    await stream.close();
    out.end();
    await once(out, 'close');
  }
  return rows;
}
