import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import type { ResolvedReport } from '../document.js';
import { chartSvg, CHART_HEIGHT, CHART_WIDTH, seps } from '../chart-svg.js';

export interface PdfOptions {
  /** Needed to open the file. */
  openPassword?: string | null;
  /** Needed to change it (printing and copying stay allowed). */
  writePassword?: string | null;
}

/** A PDF drawn from the resolved report with pdfkit; charts stay vectors; passwords use AES-256. */
export function renderPdf(r: ResolvedReport, options: PdfOptions = {}): Promise<Buffer> {
  const protect = options.openPassword || options.writePassword;
  const doc = new PDFDocument({
    size: 'A4',
    layout: r.orientation,
    margin: 48,
    info: { Title: r.title, Producer: 'Broadsheet', Creator: 'Broadsheet' },
    ...(protect
      ? {
          pdfVersion: '1.7ext3' as const,
          userPassword: options.openPassword ?? undefined,
          // Without a write password the owner password must still differ from the open one.
          ownerPassword: options.writePassword ?? `${options.openPassword}#owner`,
          permissions: {
            printing: 'highResolution' as const,
            copying: true,
            modifying: false,
            annotating: false,
            fillingForms: false,
            contentAccessibility: true,
            documentAssembly: false,
          },
        }
      : {}),
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = () => doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const ensure = (h: number) => {
    if (doc.y + h > bottom()) doc.addPage();
  };

  const KPI_W = 170;
  let kpiRow: { x: number; y: number } | null = null;
  for (const b of r.blocks) {
    if (b.type !== 'kpi') kpiRow = null;
    switch (b.type) {
      case 'heading': {
        const size = b.level === 1 ? 20 : b.level === 2 ? 15 : 12;
        ensure(size * 2);
        doc.font('Helvetica-Bold').fontSize(size).fillColor('#1d2733').text(b.text, left, doc.y, { width: width() });
        doc.moveDown(0.4);
        break;
      }
      case 'text':
        doc
          .font('Helvetica')
          .fontSize(10.5)
          .fillColor('#1d2733')
          .text(b.text, left, doc.y, { width: width(), lineGap: 2 });
        doc.moveDown(0.6);
        break;
      case 'kpi': {
        // Consecutive KPIs share a row while it has room, as in the HTML file and the preview.
        let at: { x: number; y: number } | null = kpiRow;
        if (!at || at.x + KPI_W > left + width()) {
          ensure(56);
          at = { x: left, y: doc.y };
        }
        const x: number = at.x;
        const y: number = at.y;
        doc
          .roundedRect(x, y, KPI_W - 10, 48, 6)
          .strokeColor('#dfe5ec')
          .stroke();
        doc
          .font('Helvetica')
          .fontSize(8)
          .fillColor('#5d6b7a')
          .text(b.label.toUpperCase(), x + 10, y + 8, { width: KPI_W - 30 });
        doc
          .font('Helvetica-Bold')
          .fontSize(16)
          .fillColor('#1d2733')
          .text(b.display, x + 10, y + 22, { width: KPI_W - 30 });
        kpiRow = { x: x + KPI_W, y };
        doc.y = y + 58;
        doc.x = left;
        continue;
      }
      case 'table': {
        const cols = b.columns.length;
        const w = width();
        // Dimensions get more room than measures.
        const weights = b.columns.map((c) => (c.numeric ? 1 : 1.8));
        const total = weights.reduce((a, x) => a + x, 0);
        const widths = weights.map((x) => (x / total) * w);
        const rowH = 16;
        const header = () => {
          ensure(rowH * 2);
          let x = left;
          const y = doc.y;
          doc.rect(left, y, w, rowH).fill('#eef2f7');
          doc.font('Helvetica-Bold').fontSize(8.5).fillColor('#1d2733');
          b.columns.forEach((c, i) => {
            doc.text(c.label, x + 4, y + 4, {
              width: widths[i] - 8,
              align: c.numeric ? 'right' : 'left',
              lineBreak: false,
              ellipsis: true,
            });
            x += widths[i];
          });
          doc.y = y + rowH;
        };
        if (b.title) {
          ensure(40);
          doc.font('Helvetica-Bold').fontSize(11).fillColor('#1d2733').text(b.title, left, doc.y);
          doc.moveDown(0.2);
        }
        header();
        doc.font('Helvetica').fontSize(8.5);
        b.display.forEach((row, ri) => {
          if (doc.y + rowH > bottom()) {
            doc.addPage();
            header();
            doc.font('Helvetica').fontSize(8.5);
          }
          const y = doc.y;
          if (ri % 2 === 1) doc.rect(left, y, w, rowH).fill('#f8fafc');
          doc.fillColor('#1d2733');
          let x = left;
          for (let i = 0; i < cols; i++) {
            doc.text(row[i], x + 4, y + 4, {
              width: widths[i] - 8,
              align: b.columns[i].numeric ? 'right' : 'left',
              lineBreak: false,
              ellipsis: true,
            });
            x += widths[i];
          }
          doc.y = y + rowH;
        });
        doc.x = left;
        doc.moveDown(0.8);
        break;
      }
      case 'chart': {
        const w = Math.min(width(), CHART_WIDTH);
        const h = (w / CHART_WIDTH) * CHART_HEIGHT;
        ensure(h + 10);
        SVGtoPDF(doc, chartSvg(b, seps(r)), left, doc.y, { width: w, height: h, assumePt: true });
        doc.y += h + 10;
        doc.x = left;
        break;
      }
      case 'image': {
        const w = Math.min(width(), b.width);
        ensure(60);
        doc.x = left;
        doc.image(Buffer.from(b.data, 'base64'), { width: w });
        doc.moveDown(0.5);
        break;
      }
      case 'break':
        doc.addPage();
        break;
    }
  }
  doc.end();
  return done;
}
