import { conflict } from './errors.js';

/**
 * Refuses deleting something reports still depend on, naming them, so the person knows where to go
 * first: "The filter “North” is applied by the report “Sales”; remove it from that report first."
 */
export function refuseWhileReportsUse(
  thing: string,
  verb: string,
  reports: { name: string }[],
  remedy: (those: string) => string,
): void {
  if (!reports.length) return;
  const one = reports.length === 1;
  const names =
    reports
      .slice(0, 10)
      .map((r) => `“${r.name}”`)
      .join(', ') + (reports.length > 10 ? ` and ${reports.length - 10} more` : '');
  throw conflict(
    `${thing} is ${verb} by ${one ? 'the report' : 'the reports'} ${names}; ${remedy(one ? 'that report' : 'them')} first`,
    [{ field: 'params.id', message: `${verb} by ${names}` }],
  );
}
