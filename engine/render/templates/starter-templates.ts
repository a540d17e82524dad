import type { AppMeta } from '../../analytics/model.js';
import type { ReportType } from '../formats.js';
import { safeFileName } from '../../core/file-result.js';
import PptxGenJS from 'pptxgenjs';

// The starter file the app writes for a new template report: the designer's own format with tags
// for what the app holds (its first variable, a chart's columns in a repeating row, a level over a
// small field), so there is something real to open in Office and change.

interface StarterContent {
  title: string;
  variable: string | null;
  chart: { name: string; columns: string[]; measures: string[] } | null;
  level: string | null;
}

function contentOf(meta: AppMeta, title: string): StarterContent {
  const chart = meta.charts.find((c) => c.dimensions.length && c.measures.length) ?? null;
  const level =
    [...meta.fields]
      .filter((f) => f.type === 'text' && f.distinctCount > 1 && f.distinctCount <= 25)
      .sort((a, b) => a.distinctCount - b.distinctCount)[0]?.name ?? null;
  return {
    title,
    variable: meta.variables[0]?.name ?? null,
    chart: chart
      ? {
          name: chart.name,
          columns: [...chart.dimensions, ...chart.measures.map((m) => m.label)],
          measures: chart.measures.map((m) => m.label),
        }
      : null,
    level,
  };
}

async function starterDocx(c: StarterContent): Promise<Buffer> {
  const { Document, Packer, Paragraph, Table, TableRow, TableCell, TextRun, HeadingLevel, WidthType } = await import(
    'docx'
  );
  const cell = (text: string, bold = false) =>
    new TableCell({ children: [new Paragraph({ children: [new TextRun({ text, bold })] })] });
  const children: (InstanceType<typeof Paragraph> | InstanceType<typeof Table>)[] = [
    new Paragraph({ text: c.title, heading: HeadingLevel.TITLE }),
  ];
  if (c.variable) children.push(new Paragraph(`${c.variable}: {{${c.variable}}}`));
  if (c.chart) {
    children.push(new Paragraph({ text: c.chart.name, heading: HeadingLevel.HEADING_1 }));
    children.push(
      new Table({
        width: { size: 100, type: WidthType.PERCENTAGE },
        rows: [
          new TableRow({ tableHeader: true, children: c.chart.columns.map((x) => cell(x, true)) }),
          new TableRow({ children: c.chart.columns.map((x) => cell(`{{column:${c.chart!.name}:${x}}}`)) }),
        ],
      }),
    );
    children.push(new Paragraph(`{{image:${c.chart.name}}}`));
  }
  if (c.level) {
    children.push(
      new Paragraph(`{{#level:${c.level}}}`),
      new Paragraph({ text: `{{field:${c.level}}}`, heading: HeadingLevel.HEADING_2 }),
    );
    if (c.variable) children.push(new Paragraph(`${c.variable}: {{${c.variable}}}`));
    children.push(new Paragraph(`{{/level:${c.level}}}`));
  }
  return Packer.toBuffer(new Document({ creator: 'Broadsheet', title: c.title, sections: [{ children }] }));
}

async function starterXlsx(c: StarterContent): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Report');
  sheet.getCell('A1').value = c.title;
  sheet.getCell('A1').font = { bold: true, size: 16 };
  if (c.variable) {
    sheet.getCell('A2').value = c.variable;
    sheet.getCell('B2').value = `{{${c.variable}}}`;
    sheet.getCell('B2').numFmt = '#,##0.00';
  }
  if (c.chart) {
    const chart = c.chart;
    chart.columns.forEach((name, i) => {
      const head = sheet.getCell(4, i + 1);
      head.value = name;
      head.font = { bold: true };
      head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF6' } };
      const tag = sheet.getCell(5, i + 1);
      tag.value = `{{column:${chart.name}:${name}}}`;
      if (chart.measures.includes(name)) {
        tag.numFmt = '#,##0.00';
        const letter = String.fromCharCode(65 + i);
        sheet.getCell(6, i + 1).value = { formula: `SUM(${letter}5:${letter}5)` };
        sheet.getCell(6, i + 1).numFmt = '#,##0.00';
        sheet.getCell(6, i + 1).font = { bold: true };
      }
      sheet.getColumn(i + 1).width = 22;
    });
    sheet.getCell(6, 1).value = chart.measures.length < chart.columns.length ? 'Total' : null;
  }
  if (c.level) {
    // A level: the rows between its tags repeat per value, with that value selected.
    sheet.getCell('A8').value = `{{#level:${c.level}}}`;
    sheet.getCell('A9').value = `{{field:${c.level}}}`;
    if (c.variable) {
      sheet.getCell('B9').value = `{{${c.variable}}}`;
      sheet.getCell('B9').numFmt = '#,##0.00';
    }
    sheet.getCell('A10').value = `{{/level:${c.level}}}`;
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function starterPptx(c: StarterContent): Promise<Buffer> {
  const deck = new PptxGenJS();
  const first = deck.addSlide();
  first.addText(c.title, { x: 0.5, y: 0.4, w: 9, h: 0.8, fontSize: 28, bold: true });
  if (c.variable) first.addText(`${c.variable}: {{${c.variable}}}`, { x: 0.5, y: 1.4, w: 9, h: 0.6, fontSize: 18 });
  if (c.chart) {
    const chart = c.chart;
    const table = deck.addSlide();
    table.addText(chart.name, { x: 0.5, y: 0.3, w: 9, h: 0.6, fontSize: 22, bold: true });
    table.addTable(
      [
        chart.columns.map((x) => ({ text: x, options: { bold: true } })),
        chart.columns.map((x) => ({ text: `{{column:${chart.name}:${x}}}` })),
      ],
      { x: 0.5, y: 1.1, w: 9, fontSize: 12, border: { type: 'solid', pt: 0.5, color: 'BFC7D1' } },
    );
  }
  if (c.level) {
    const per = deck.addSlide();
    per.addText(`{{slide:${c.level}}}{{field:${c.level}}}`, { x: 0.5, y: 0.4, w: 9, h: 0.8, fontSize: 26, bold: true });
    if (c.variable) per.addText(`${c.variable}: {{${c.variable}}}`, { x: 0.5, y: 1.4, w: 9, h: 0.6, fontSize: 18 });
  }
  return Buffer.from((await deck.write({ outputType: 'nodebuffer' })) as ArrayBuffer);
}

function starterHtml(c: StarterContent): Buffer {
  const esc = (s: string) =>
    s.replace(/[&<>"]/g, (x) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[x]!);
  const parts = [`<h1>${esc(c.title)}</h1>`];
  if (c.variable) parts.push(`<p>${esc(c.variable)}: {{${esc(c.variable)}}}</p>`);
  if (c.chart) {
    const chart = c.chart;
    parts.push(
      `<h2>${esc(chart.name)}</h2>`,
      `<table><thead><tr>${chart.columns.map((x) => `<th>${esc(x)}</th>`).join('')}</tr></thead><tbody><tr>${chart.columns.map((x) => `<td>{{column:${esc(chart.name)}:${esc(x)}}}</td>`).join('')}</tr></tbody></table>`,
      `<div>{{image:${esc(chart.name)}}}</div>`,
    );
  }
  if (c.level)
    parts.push(
      `<div>{{#level:${esc(c.level)}}}</div>`,
      `<h3>{{field:${esc(c.level)}}}</h3>`,
      ...(c.variable ? [`<p>${esc(c.variable)}: {{${esc(c.variable)}}}</p>`] : []),
      `<div>{{/level:${esc(c.level)}}}</div>`,
    );
  const style =
    'body{font-family:system-ui,sans-serif;margin:24px;color:#1d2733}table{border-collapse:collapse}td,th{border:1px solid #c9d1db;padding:4px 10px}th{background:#eef2f7;text-align:left}';
  return Buffer.from(
    `<!doctype html>\n<html><head><meta charset="utf-8"><title>${esc(c.title)}</title><style>${style}</style></head>\n<body>\n${parts.join('\n')}\n</body></html>\n`,
    'utf8',
  );
}

const EXTENSION: Record<ReportType, string> = { Word: 'docx', Excel: 'xlsx', PowerPoint: 'pptx', Html: 'html' };

/** A starter template of a report type for an app, named after the report. */
export async function starterTemplate(
  type: ReportType,
  meta: AppMeta,
  title: string,
): Promise<{ fileName: string; bytes: Buffer }> {
  const c = contentOf(meta, title);
  const bytes =
    type === 'Word'
      ? await starterDocx(c)
      : type === 'Excel'
        ? await starterXlsx(c)
        : type === 'PowerPoint'
          ? await starterPptx(c)
          : starterHtml(c);
  return { fileName: `${safeFileName(title)}.${EXTENSION[type]}`, bytes };
}
