import {
  AlignmentType,
  Document,
  HeadingLevel,
  ImageRun,
  Packer,
  PageBreak,
  PageOrientation,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import type { ResolvedReport } from '../document.js';
import { chartSvg, CHART_HEIGHT, CHART_WIDTH, seps } from '../chart-svg.js';
import { svgToPng } from '../chart-png.js';

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3];

/** A Word document: headings and text as styled paragraphs, tables as Word tables, charts as SVG (PNG fallback). */
export async function renderDocx(r: ResolvedReport): Promise<Buffer> {
  const children: (Paragraph | Table)[] = [];
  for (const b of r.blocks) {
    switch (b.type) {
      case 'heading':
        children.push(new Paragraph({ text: b.text, heading: HEADINGS[Math.min(2, b.level - 1)] }));
        break;
      case 'text':
        for (const line of b.text.split('\n')) children.push(new Paragraph({ children: [new TextRun(line)] }));
        break;
      case 'kpi':
        children.push(
          new Paragraph({
            children: [
              new TextRun({ text: `${b.label}: `, bold: true }),
              new TextRun({ text: b.display, size: 32, bold: true }),
            ],
          }),
        );
        break;
      case 'table': {
        if (b.title) children.push(new Paragraph({ children: [new TextRun({ text: b.title, bold: true })] }));
        const cell = (text: string, numeric: boolean, header = false) =>
          new TableCell({
            children: [
              new Paragraph({
                alignment: numeric ? AlignmentType.RIGHT : AlignmentType.LEFT,
                children: [new TextRun({ text, bold: header, size: 18 })],
              }),
            ],
            shading: header ? { type: ShadingType.CLEAR, color: 'auto', fill: 'EEF2F7' } : undefined,
          });
        children.push(
          new Table({
            width: { size: 100, type: WidthType.PERCENTAGE },
            rows: [
              new TableRow({ tableHeader: true, children: b.columns.map((c) => cell(c.label, c.numeric, true)) }),
              ...b.display.map((row) => new TableRow({ children: row.map((v, i) => cell(v, b.columns[i].numeric)) })),
            ],
          }),
        );
        children.push(new Paragraph(''));
        break;
      }
      case 'chart': {
        const svg = chartSvg(b, seps(r));
        children.push(
          new Paragraph({
            children: [
              new ImageRun({
                type: 'svg',
                data: Buffer.from(svg),
                fallback: { type: 'png', data: svgToPng(svg, CHART_WIDTH) },
                transformation: { width: CHART_WIDTH * 0.9, height: CHART_HEIGHT * 0.9 },
                altText: { title: b.title, description: b.title, name: b.title },
              }),
            ],
          }),
        );
        break;
      }
      case 'image':
        children.push(
          new Paragraph({
            children: [
              new ImageRun({
                type: b.mime === 'image/png' ? 'png' : 'jpg',
                data: Buffer.from(b.data, 'base64'),
                transformation: { width: b.width, height: b.width * 0.6 },
              }),
            ],
          }),
        );
        break;
      case 'break':
        children.push(new Paragraph({ children: [new PageBreak()] }));
        break;
    }
  }
  const doc = new Document({
    creator: 'Broadsheet',
    title: r.title,
    styles: { default: { document: { run: { font: 'Calibri', size: 21 } } } },
    sections: [
      {
        properties: {
          page: {
            size: { orientation: r.orientation === 'landscape' ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT },
          },
        },
        children,
      },
    ],
  });
  return Packer.toBuffer(doc);
}
