import type { ResolvedReport } from '../document.js';
import { chartSvg, seps } from '../chart-svg.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font-family:Helvetica,Arial,sans-serif;color:#1d2733;margin:32px auto;max-width:960px;padding:0 16px}
h1{font-size:26px}h2{font-size:20px}h3{font-size:16px}.kpi{display:inline-block;border:1px solid #dfe5ec;border-radius:8px;padding:12px 18px;margin:6px 12px 6px 0}
.kpi .v{font-size:24px;font-weight:700}.kpi .l{color:#5d6b7a;font-size:12px;text-transform:uppercase}table{border-collapse:collapse;width:100%;margin:12px 0}
th,td{border-bottom:1px solid #dfe5ec;padding:6px 8px;text-align:left}td.n,th.n{text-align:right}caption{text-align:left;font-weight:700;padding:6px 0}
.chart svg{max-width:100%;height:auto}.break{page-break-after:always;border:0}footer{color:#5d6b7a;font-size:11px;margin-top:24px}`;

/** One self-contained HTML file: styles inline, charts as inline SVG, images as data URLs; no script. */
export function renderHtml(r: ResolvedReport): Buffer {
  const body = r.blocks
    .map((b) => {
      switch (b.type) {
        case 'heading':
          return `<h${b.level}>${esc(b.text)}</h${b.level}>`;
        case 'text':
          return b.text.split(/\n{2,}/).map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`).join('');
        case 'kpi':
          return `<div class="kpi"><div class="l">${esc(b.label)}</div><div class="v">${esc(b.display)}</div></div>`;
        case 'table':
          return `<table>${b.title ? `<caption>${esc(b.title)}</caption>` : ''}<thead><tr>${b.columns.map((c) => `<th${c.numeric ? ' class="n"' : ''}>${esc(c.label)}</th>`).join('')}</tr></thead><tbody>${b.display
            .map((row) => `<tr>${row.map((v, i) => `<td${b.columns[i].numeric ? ' class="n"' : ''}>${esc(v)}</td>`).join('')}</tr>`)
            .join('')}</tbody></table>`;
        case 'chart':
          return `<figure class="chart" aria-label="${esc(b.title)}">${chartSvg(b, seps(r))}</figure>`;
        case 'image':
          return `<img src="data:${b.mime};base64,${b.data}" width="${Math.round(b.width)}" alt="${esc(b.alt)}">`;
        case 'break':
          return '<hr class="break">';
      }
    })
    .join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><title>${esc(r.title)}</title><style>${STYLE}</style></head><body>${body}<footer>${esc(r.title)} · generated ${esc(r.generatedAt.slice(0, 16).replace('T', ' '))} UTC</footer></body></html>`;
  return Buffer.from(html, 'utf8');
}
