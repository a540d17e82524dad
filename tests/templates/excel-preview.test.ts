// The Excel preview shows what Excel would (issue 43): formulas computed (by LibreOffice where it
// is installed), numbers, percentages and dates in each cell's own format.
import { afterEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { covers } from '../support/covers.js';
import { templatePreviewHtml } from '../../engine/render/templates/template-preview.js';

/** A filled workbook as the fill leaves one: a total whose formula has no result yet. */
async function filledWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sales');
  sheet.addRow(['Region', 'Sales', 'Share', 'Since']);
  const rows: [string, number, number, Date][] = [
    ['EMEA', 29.70178377641206, 0.256, new Date(Date.UTC(2026, 2, 1))],
    ['APAC', 1234.5, 0.5, new Date(Date.UTC(2025, 11, 31))],
    ['Americas', 7, 0.244, new Date(Date.UTC(2024, 0, 15))],
  ];
  for (const r of rows) sheet.addRow(r);
  sheet.getCell('A5').value = 'Total';
  sheet.getCell('B5').value = { formula: 'SUM(B2:B4)' } as ExcelJS.CellFormulaValue;
  sheet.getColumn(2).numFmt = '#,##0.00';
  sheet.getColumn(3).numFmt = '0.0%';
  sheet.getColumn(4).numFmt = 'yyyy-mm-dd';
  return Buffer.from(await book.xlsx.writeBuffer());
}

const SOFFICE = process.env.BROADSHEET_SOFFICE;
afterEach(() => {
  if (SOFFICE === undefined) delete process.env.BROADSHEET_SOFFICE;
  else process.env.BROADSHEET_SOFFICE = SOFFICE;
});

describe(covers('template preview', 'app.reports.preview'), () => {
  it('shows computed totals and each value in its number format', async () => {
    const html = await templatePreviewHtml('xlsx', await filledWorkbook(), 'Sales');
    expect(html).toContain('<td class="n">29.70</td>');
    expect(html).toContain('<td class="n">1,234.50</td>');
    // The total LibreOffice computed, in the column's format: not "=SUM(B2:B4)".
    expect(html).toContain('<td class="n">1,271.20</td>');
    expect(html).not.toContain('=SUM');
    expect(html).toContain('<td class="n">25.6%</td>');
    expect(html).toContain('2026-03-01');
    expect(html).toContain('2025-12-31');
    expect(html).not.toContain('Formulas are shown as written');
  });

  it('says formulas are shown as written where LibreOffice is not installed, values still formatted', async () => {
    process.env.BROADSHEET_SOFFICE = '/nonexistent/soffice';
    const html = await templatePreviewHtml('xlsx', await filledWorkbook(), 'Sales');
    expect(html).toContain('Formulas are shown as written');
    expect(html).toContain('=SUM(B2:B4)');
    expect(html).toContain('<td class="n">29.70</td>');
    expect(html).toContain('2024-01-15');
  });
});
