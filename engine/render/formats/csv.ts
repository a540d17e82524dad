import type { ResolvedReport } from '../document.js';
import { looksLikeFormula } from '../number-format.js';

const field = (v: string | number | null) => {
  if (v === null) return '';
  let s = typeof v === 'number' ? String(v) : v;
  // A text that a spreadsheet would run as a formula is prefixed with a quote (OWASP CSV injection).
  if (typeof v === 'string' && looksLikeFormula(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The report's tables as CSV (numbers unformatted, so they stay numbers); several tables are separated by a blank line. */
export function renderCsv(r: ResolvedReport): Buffer {
  const tables = r.blocks.filter((b): b is Extract<typeof b, { type: 'table' }> => b.type === 'table');
  const out = tables.map((t) =>
    [t.columns.map((c) => field(c.label)).join(','), ...t.rows.map((row) => row.map(field).join(','))].join('\r\n'),
  );
  return Buffer.from('\uFEFF' + out.join('\r\n\r\n') + '\r\n', 'utf8');
}
