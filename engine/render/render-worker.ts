// Worker-thread entry: renders one file away from the main thread, so the UI and API stay responsive.
import { renderFormat } from './render-format.js';
import { renderTemplate, type TemplateRenderTask } from './templates/fill-template.js';
import type { ResolvedReport } from './document.js';
import type { OutputFormat, ProtectionOptions } from './formats.js';

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

/** Fills a template report's file with data already resolved (the thread runs no query). */
export async function fillTemplate(task: TemplateRenderTask): Promise<Uint8Array> {
  return asBytes(await renderTemplate(task));
}
