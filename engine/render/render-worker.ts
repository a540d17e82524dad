// Worker-thread entry: renders one file away from the main thread, so the UI and API stay responsive.
import { renderFormat } from './render-format.js';
import { renderTemplate, type TemplateRenderTask } from './templates/fill-template.js';
import type { ResolvedReport } from './document.js';
import type { OutputFormat, ProtectionOptions } from './formats.js';
import { scanTemplate, type ScannedTemplate } from './templates/template-check.js';
import { EngineError, type FieldError } from '../core/errors.js';

/** A scan as it crosses back from a render thread. */
export type ScanAnswer =
  | { ok: true; scanned: ScannedTemplate }
  | { ok: false; status: number; message: string; details: FieldError[] | null };

export interface RenderTask {
  format: OutputFormat;
  report: ResolvedReport;
  protection?: ProtectionOptions;
}
export type { TemplateRenderTask };

const asBytes = (buf: Buffer) => new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);

export async function render(task: RenderTask): Promise<Uint8Array> {
  return asBytes(await renderFormat(task.format, task.report, task.protection));
}

/**
 * Reads a template's tags and hazards away from the main thread (a large file takes seconds to
 * parse). A refusal travels back as data: an error's own fields do not cross between threads.
 */
export async function scan(task: { bytes: Uint8Array; fileName: string }): Promise<ScanAnswer> {
  try {
    const { pkg: _pkg, ...scanned } = await scanTemplate(
      Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength),
      task.fileName,
    );
    return { ok: true, scanned };
  } catch (e) {
    if (e instanceof EngineError) return { ok: false, status: e.status, message: e.message, details: e.details };
    throw e;
  }
}

/** Fills a template report's file with data already resolved (the thread runs no query). */
export async function fillTemplate(task: TemplateRenderTask): Promise<Uint8Array> {
  return asBytes(await renderTemplate(task));
}
