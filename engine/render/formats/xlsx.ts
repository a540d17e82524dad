import ExcelJS from 'exceljs';
import type { ResolvedReport } from '../document.js';
import { chartSvg, CHART_HEIGHT, CHART_WIDTH, seps } from '../chart-svg.js';
import { svgToPng } from '../chart-png.js';
import { looksLikeFormula } from '../number-format.js';

export interface XlsxOptions {
  /** Protects every sheet against changes (Excel's sheet protection). */
  writePassword?: string | null;
}

/** Excel number format for the report's decimals; the separators shown follow the reader's Excel. */
const numFmt = (v: number) => (Number.isInteger(v) ? '#,##0' : '#,##0.00');

/**
 * A workbook from the resolved report: tables as typed cells (numbers stay numbers), KPIs as
 * label/value pairs, charts as pictures, and each break starts a new sheet. Text that Excel would
 * read as a formula is stored as text with the text format.
 */
export async function renderXlsx(r: ResolvedReport, options: XlsxOptions = {}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Broadsheet';
  wb.title = r.title;
  wb.created = new Date(r.generatedAt);
  let sheetNo = 1;
  let ws = wb.addWorksheet(r.title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 28) || 'Report');
  let row = 1;
  const setText = (cell: ExcelJS.Cell, text: string) => {
    cell.value = text;
    if (looksLikeFormula(text)) cell.numFmt = '@';
  };
  const setValue = (cell: ExcelJS.Cell, v: string | number | null) => {
    if (typeof v === 'number') {
      cell.value = v;
      cell.numFmt = numFmt(v);
    } else if (v !== null) setText(cell, v);
  };
  const widths = new Map<number, number>();
  const fit = (col: number, text: string) =>
    widths.set(col, Math.max(widths.get(col) ?? 10, Math.min(60, text.length + 2)));
  const finishSheet = () => {
    for (const [col, w] of widths) ws.getColumn(col).width = w;
    widths.clear();
    if (options.writePassword)
      return ws.protect(options.writePassword, { selectLockedCells: true, selectUnlockedCells: true });
  };

  for (const b of r.blocks) {
    switch (b.type) {
      case 'heading': {
        const c = ws.getCell(row, 1);
        setText(c, b.text);
        c.font = { bold: true, size: b.level === 1 ? 16 : b.level === 2 ? 13 : 11 };
        row += 2;
        break;
      }
      case 'text':
        for (const line of b.text.split('\n')) setText(ws.getCell(row++, 1), line);
        row++;
        break;
      case 'kpi': {
        const label = ws.getCell(row, 1);
        setText(label, b.label);
        label.font = { bold: true };
        setValue(ws.getCell(row, 2), b.value);
        fit(1, b.label);
        row += 2;
        break;
      }
      case 'table': {
        if (b.title) {
          const t = ws.getCell(row++, 1);
          setText(t, b.title);
          t.font = { bold: true, size: 12 };
        }
        b.columns.forEach((c, i) => {
          const cell = ws.getCell(row, i + 1);
          setText(cell, c.label);
          cell.font = { bold: true };
          cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEEF2F7' } };
          cell.alignment = { horizontal: c.numeric ? 'right' : 'left' };
          fit(i + 1, c.label);
        });
        row++;
        for (const [ri, values] of b.rows.entries()) {
          values.forEach((v, i) => {
            setValue(ws.getCell(row, i + 1), v);
            fit(i + 1, b.display[ri][i]);
          });
          row++;
        }
        row++;
        break;
      }
      case 'chart': {
        const png = svgToPng(chartSvg(b, seps(r)), CHART_WIDTH);
        const image = wb.addImage({ buffer: png as unknown as ExcelJS.Buffer, extension: 'png' });
        ws.addImage(image, { tl: { col: 0, row: row - 1 }, ext: { width: CHART_WIDTH, height: CHART_HEIGHT } });
        row += Math.ceil(CHART_HEIGHT / 20) + 1;
        break;
      }
      case 'image': {
        const image = wb.addImage({ base64: b.data, extension: b.mime === 'image/png' ? 'png' : 'jpeg' });
        ws.addImage(image, { tl: { col: 0, row: row - 1 }, ext: { width: b.width, height: b.width * 0.6 } });
        row += Math.ceil((b.width * 0.6) / 20) + 1;
        break;
      }
      case 'break':
        await finishSheet();
        ws = wb.addWorksheet(`Sheet ${++sheetNo}`);
        row = 1;
        break;
    }
  }
  await finishSheet();
  return Buffer.from(await wb.xlsx.writeBuffer());
}
