import officeCrypto from 'officecrypto-tool';
import type { OutputFormat, ProtectionOptions } from '../formats.js';
import { fillDocx } from './docx-fill.js';
import { fillHtml } from './html-fill.js';
import { officeConvert } from './office-pdf.js';
import { fillPptx } from './pptx-fill.js';
import type { TemplateData } from './template-data.js';
import { openOfficePackage, templateFormatOf } from './template-package.js';
import { fillXlsx } from './xlsx-fill.js';
import { templatePreviewHtml } from './template-preview.js';

/** What a render thread needs to fill a template: its bytes and name, the resolved data, the output. */
export interface TemplateRenderTask {
  fileName: string;
  bytes: Uint8Array;
  data: TemplateData;
  format: OutputFormat;
  protection?: ProtectionOptions;
  /** Answer an HTML look at the filled file instead of the file (the designer's preview). */
  preview?: boolean;
}

/** The file a template report makes: the template filled, converted by LibreOffice where the format asks. */
export async function renderTemplate(task: TemplateRenderTask): Promise<Buffer> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const kind = templateFormatOf(task.fileName);
  if (!kind) throw new Error(`${task.fileName} is not a template`);
  let filled: Buffer;
  if (kind === 'html') filled = fillHtml(bytes.toString('utf8'), task.data);
  else {
    const pkg = await openOfficePackage(bytes, kind);
    filled =
      kind === 'docx'
        ? await fillDocx(pkg, task.data)
        : kind === 'xlsx'
          ? await fillXlsx(pkg, task.data)
          : await fillPptx(pkg, bytes, task.data);
  }
  if (task.preview) return Buffer.from(await templatePreviewHtml(kind, filled, task.data.title), 'utf8');
  if (task.format === 'Pdf') return officeConvert(filled, kind, 'pdf', task.protection);
  if (task.format === 'Csv') return officeConvert(filled, kind, 'csv');
  if (kind === 'html' || !task.protection?.openPassword) return filled;
  return Buffer.from(await officeCrypto.encrypt(filled, { password: task.protection.openPassword }));
}
