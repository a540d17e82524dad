// Worker-thread entry: renders one file away from the main thread, so the UI and API stay responsive.
import { renderFormat } from './render-format.js';
import type { ResolvedReport } from './document.js';
import type { OutputFormat, ProtectionOptions } from './formats.js';

export interface RenderTask {
  format: OutputFormat;
  report: ResolvedReport;
  protection?: ProtectionOptions;
}

export async function render(task: RenderTask): Promise<Uint8Array> {
  const buf = await renderFormat(task.format, task.report, task.protection);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
