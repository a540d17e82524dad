/** Formats a number with the report's decimal and group separators (not the machine's locale). */
export function formatNumber(value: number, decimalSeparator = '.', groupSeparator = ',', decimals?: number): string {
  const places = decimals ?? (Number.isInteger(value) ? 0 : 2);
  const fixed = Math.abs(value).toFixed(places);
  const [int, frac] = fixed.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, groupSeparator);
  return `${value < 0 && Number(fixed) !== 0 ? '-' : ''}${grouped}${frac ? decimalSeparator + frac : ''}`;
}

export function formatCell(
  value: string | number | null,
  decimalSeparator: string,
  groupSeparator: string,
  format?: { decimals?: number; prefix?: string; suffix?: string },
): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'number') return String(value);
  return `${format?.prefix ?? ''}${formatNumber(value, decimalSeparator, groupSeparator, format?.decimals)}${format?.suffix ?? ''}`;
}

/** Spreadsheet cells and CSV fields that a spreadsheet would read as a formula (OWASP CSV injection). */
export const looksLikeFormula = (s: string) => /^[=+\-@\t\r]/.test(s);
