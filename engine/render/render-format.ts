import officeCrypto from 'officecrypto-tool';
import type { ResolvedReport } from './document.js';
import type { OutputFormat, ProtectionOptions } from './formats.js';
import { renderPdf } from './formats/pdf.js';
import { renderXlsx } from './formats/xlsx.js';
import { renderDocx } from './formats/docx.js';
import { renderPptx } from './formats/pptx.js';
import { renderHtml } from './formats/html.js';
import { renderCsv } from './formats/csv.js';
import { chartSvg, CHART_WIDTH } from './chart-svg.js';
import { svgToPng } from './chart-png.js';

/**
 * Renders one format. Open passwords: PDF through its own AES-256 encryption, Office files through
 * ECMA-376 agile encryption (officecrypto-tool). Write passwords: PDF permissions and Excel sheet
 * protection; Word and PowerPoint have no maintained JS writer for it (see docs/DECISIONS.md).
 */
export async function renderFormat(
  format: OutputFormat,
  report: ResolvedReport,
  protection: ProtectionOptions = {},
): Promise<Buffer> {
  let out: Buffer;
  switch (format) {
    case 'Pdf':
      return renderPdf(report, protection);
    case 'Xlsx':
      out = await renderXlsx(report, { writePassword: protection.writePassword });
      break;
    case 'Docx':
      out = await renderDocx(report);
      break;
    case 'Pptx':
      out = await renderPptx(report);
      break;
    case 'Html':
      return renderHtml(report);
    case 'Csv':
      return renderCsv(report);
    case 'Png': {
      const chart = report.blocks.find((b) => b.type === 'chart');
      if (!chart || chart.type !== 'chart') throw new Error('Png renders one chart, and the report has none');
      return svgToPng(
        chartSvg(chart, { decimal: report.decimalSeparator, group: report.groupSeparator }),
        CHART_WIDTH * 2,
      );
    }
  }
  return protection.openPassword
    ? Buffer.from(await officeCrypto.encrypt(out, { password: protection.openPassword }))
    : out;
}
