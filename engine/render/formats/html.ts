import type { ResolvedReport } from '../document.js';
import { chartSvg, seps } from '../chart-svg.js';
import { REPORT_STYLE, REPORT_STYLE_HASH } from '../report-style.js';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Block = ResolvedReport['blocks'][number];

function blockHtml(b: Block, r: ResolvedReport): string {
  switch (b.type) {
    case 'heading':
      return `<h${b.level}>${esc(b.text)}</h${b.level}>`;
    case 'text':
      return b.text
        .split(/\n{2,}/)
        .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
        .join('');
    case 'kpi':
      return `<div class="kpi"><div class="l">${esc(b.label)}</div><div class="v">${esc(b.display)}</div></div>`;
    case 'table':
      return `<table>${b.title ? `<caption>${esc(b.title)}</caption>` : ''}<thead><tr>${b.columns.map((c) => `<th${c.numeric ? ' class="n"' : ''}>${esc(c.label)}</th>`).join('')}</tr></thead><tbody>${b.display
        .map(
          (row) =>
            `<tr>${row.map((v, i) => `<td${b.columns[i].numeric ? ' class="n"' : ''}>${esc(v)}</td>`).join('')}</tr>`,
        )
        .join('')}</tbody></table>`;
    case 'chart':
      return `<figure class="chart" aria-label="${esc(b.title)}">${chartSvg(b, seps(r))}</figure>`;
    case 'image':
      return `<img src="data:${b.mime};base64,${b.data}" width="${Math.round(b.width)}" alt="${esc(b.alt)}">`;
    case 'break':
      return '<hr class="break">';
  }
}

/** One self-contained HTML file: styles inline (allowed by their hash), charts as inline SVG, images as data URLs; no script. */
export function renderHtml(r: ResolvedReport): Buffer {
  // Consecutive KPIs share a row, as in the PDF.
  const parts: string[] = [];
  let kpis: string[] = [];
  const flush = () => {
    if (kpis.length) parts.push(`<div class="kpis">${kpis.join('')}</div>`);
    kpis = [];
  };
  for (const b of r.blocks) {
    if (b.type === 'kpi') kpis.push(blockHtml(b, r));
    else {
      flush();
      parts.push(blockHtml(b, r));
    }
  }
  flush();
  const body = parts.join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '${REPORT_STYLE_HASH}'; img-src data:"><title>${esc(r.title)}</title><style>${REPORT_STYLE}</style></head><body><div class="report-page">${body}<footer>${esc(r.title)} · generated ${esc(r.generatedAt.slice(0, 16).replace('T', ' '))} UTC</footer></div></body></html>`;
  return Buffer.from(html, 'utf8');
}
