// Passwords on output files: PDF by its own encryption, Office files by ECMA-376 agile encryption.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import officeCrypto from 'officecrypto-tool';
import { EmbeddedProvider } from '../../engine/analytics/embedded/embedded-provider.js';
import { RenderPool } from '../../engine/render/render-pool.js';
import { resolveReport } from '../../engine/render/resolve.js';
import type { ResolvedReport } from '../../engine/render/document.js';
import {
  ooxmlText,
  pdfOpensWithoutPassword,
  pdfPages,
  qpdfCheck,
  qpdfEncryption,
  xlsxWorkbook,
} from '../support/read-back.js';

let provider: EmbeddedProvider;
let appsDir: string;
let pool: RenderPool;
let report: ResolvedReport;

beforeAll(async () => {
  appsDir = await mkdtemp(join(tmpdir(), 'bs-protect-'));
  provider = new EmbeddedProvider(appsDir);
  await provider.createApp('tiny', 'Tiny');
  await provider.importFile('tiny', 'csv', Buffer.from('Region,Sales\nNorth,100.5\nSouth,200\n'), 'tiny.csv');
  report = await resolveReport({
    provider,
    appId: 'tiny',
    title: 'Protected',
    selections: {},
    document: {
      blocks: [
        { id: 'h', type: 'heading', text: 'Confidential figures' },
        { id: 't', type: 'table', dimensions: ['Region'], measures: [{ label: 'Sales', expression: 'Sum(Sales)' }] },
      ],
    },
  });
  pool = new RenderPool(1);
});
afterAll(async () => {
  await pool.close();
  await provider.close();
  await rm(appsDir, { recursive: true, force: true });
});

describe('file passwords', () => {
  it('a PDF with an open password does not open without it, and opens with it', async () => {
    const pdf = await pool.render({ format: 'Pdf', report, protection: { openPassword: 'open-sesame' } });
    expect(pdfOpensWithoutPassword(pdf)).toBe(false);
    expect(pdfPages(pdf, 'open-sesame')[0]).toContain('Confidential figures');
    expect(qpdfCheck(pdf, 'open-sesame')).toMatch(/No syntax or stream encoding errors/);
    expect(qpdfEncryption(pdf, 'open-sesame')).toMatch(/file encryption method: AESv3/);
  });

  it('a PDF with only a write password opens freely but refuses changes', async () => {
    const pdf = await pool.render({ format: 'Pdf', report, protection: { writePassword: 'owner-only' } });
    expect(pdfOpensWithoutPassword(pdf)).toBe(true);
    const check = qpdfEncryption(pdf);
    expect(check).toMatch(/modify anything: not allowed/i);
    expect(check).toMatch(/print high resolution: allowed/i);
  });

  it.each(['Xlsx', 'Docx', 'Pptx'] as const)(
    'a %s with an open password is encrypted and opens only with it',
    async (format) => {
      const file = await pool.render({ format, report, protection: { openPassword: 'pa55' } });
      expect(officeCrypto.isEncrypted(file)).toBe(true);
      await expect(officeCrypto.decrypt(file, { password: 'wrong' })).rejects.toThrow();
      const plain = await officeCrypto.decrypt(file, { password: 'pa55' });
      if (format === 'Xlsx')
        expect((await xlsxWorkbook(plain)).worksheets[0].getCell(1, 1).value).toBe('Confidential figures');
      else
        expect(
          await ooxmlText(plain, format === 'Docx' ? /^word\/document\.xml$/ : /^ppt\/slides\/slide1\.xml$/),
        ).toContain('Confidential figures');
    },
  );

  it('an XLSX with a write password protects its sheets', async () => {
    const wb = await xlsxWorkbook(
      await pool.render({ format: 'Xlsx', report, protection: { writePassword: 'edit-me' } }),
    );
    expect((wb.worksheets[0] as unknown as { sheetProtection?: { sheet?: boolean } }).sheetProtection?.sheet).toBe(
      true,
    );
  });
});
