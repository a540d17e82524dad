import { createHash } from 'node:crypto';

/**
 * The look of an HTML report, and of the designer's preview, which shows the same markup with the same
 * rules. Everything hangs off .report-page so the rules can sit inside the app's page (in a shadow root)
 * without touching it. KPIs sit side by side, as the PDF lays them out.
 */
export const REPORT_STYLE = `body{margin:0;background:#fff}
.report-page{font-family:Helvetica,Arial,sans-serif;color:#1d2733;margin:32px auto;max-width:960px;padding:0 16px;line-height:1.4}
.report-page h1{font-size:26px}.report-page h2{font-size:20px}.report-page h3{font-size:16px}
.report-page .kpis{display:flex;flex-wrap:wrap;gap:12px;margin:6px 0}
.report-page .kpi{border:1px solid #dfe5ec;border-radius:8px;padding:12px 18px;width:220px}
.report-page .kpi .v{font-size:24px;font-weight:700}.report-page .kpi .l{color:#5d6b7a;font-size:12px;text-transform:uppercase}
.report-page table{border-collapse:collapse;width:100%;margin:12px 0}
.report-page th,.report-page td{border-bottom:1px solid #dfe5ec;padding:6px 8px;text-align:left}.report-page td.n,.report-page th.n{text-align:right}
.report-page caption{text-align:left;font-weight:700;padding:6px 0}.report-page figure{margin:12px 0}
.report-page .chart svg{max-width:100%;height:auto;display:block}.report-page img{max-width:100%;height:auto}
.report-page .break{page-break-after:always;border:0;border-top:2px dashed #dfe5ec}
.report-page footer{color:#5d6b7a;font-size:11px;margin-top:24px}`;

/** The style's hash as a Content-Security-Policy source: the app's page allows exactly this style. */
export const REPORT_STYLE_HASH = `sha256-${createHash('sha256').update(REPORT_STYLE, 'utf8').digest('base64')}`;
