import { availableParallelism } from 'node:os';
import { findBundledWorker } from '../core/bundled-worker.js';
import type { Piscina } from 'piscina';
import type { RenderTask, ScanAnswer, TemplateRenderTask } from './render-worker.js';
import type { ScannedTemplate } from './templates/template-check.js';
import { EngineError, MISSING_MODULE } from '../core/errors.js';

/** What makes report files: the pool of render threads, or another renderer put in its place. */
export interface Renderer {
  readonly threads: number;
  render(task: RenderTask): Promise<Buffer>;
  fillTemplate(task: TemplateRenderTask): Promise<Buffer>;
  /** Reads a template's tags and hazards (in a render thread: a large file takes seconds). */
  scanTemplate(bytes: Buffer, fileName: string): Promise<ScannedTemplate>;
  close(): Promise<void>;
}

/** A scan's answer from a thread, as the caller would have had it in-process. */
export function scanned(answer: ScanAnswer): ScannedTemplate {
  if (answer.ok) return answer.scanned;
  throw new EngineError(answer.status, answer.message, answer.details);
}

/**
 * A thread's failure as the caller gets it. An error crosses threads as its message alone; one
 * saying that an optional module of this installation is missing (`missingModule`) is the
 * installation's answer, not a fault: 501 with its words, where anything else is a 500.
 */
function saidInWords(e: unknown): never {
  const message = e instanceof Error ? e.message : String(e);
  if (message.includes(MISSING_MODULE)) throw new EngineError(501, message);
  throw e;
}

/** How much lower than the main thread render threads run (0–19 on Unix; higher is lower). */
export const RENDER_NICE = 10;

/** A pool of worker threads, one per core, that renders files from resolved reports. */
export class RenderPool implements Renderer {
  private pool: Promise<Piscina> | null = null;

  constructor(
    readonly threads = Math.max(1, availableParallelism()),
    /** The threads' script (tests name another). */
    private readonly filename?: string,
  ) {}

  /** The threads start with the first file to render; piscina itself loads then, not at every start. */
  private get piscina(): Promise<Piscina> {
    const made = (this.pool ??= import('piscina').then(({ Piscina }) => {
      const pool = new Piscina({
        filename: this.filename ?? findBundledWorker('render-worker.cjs'),
        minThreads: 1,
        maxThreads: this.threads,
        idleTimeout: 60_000,
        // Rendering and template checks are background work: on a busy machine the main thread's
        // calls come first (Linux and macOS apply it per thread; without @napi-rs/nice it is skipped).
        niceIncrement: RENDER_NICE,
      });
      // A thread that cannot load (a module missing from an installation) fails the call that
      // started it; piscina then starts another and queues the next calls behind it for good. The
      // pool is let go instead: calls queued behind it are refused, and the next call tries afresh.
      pool.on('error', () => {
        if (this.pool === made) this.pool = null;
        void pool.destroy().catch(() => {});
      });
      return pool;
    }));
    return made;
  }

  async render(task: RenderTask): Promise<Buffer> {
    const bytes = (await (await this.piscina).run(task, { name: 'render' }).catch(saidInWords)) as Uint8Array;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Fills a template in a render thread; LibreOffice conversions (PDF) run from there too. */
  async fillTemplate(task: TemplateRenderTask): Promise<Buffer> {
    const bytes = (await (await this.piscina).run(task, { name: 'fillTemplate' }).catch(saidInWords)) as Uint8Array;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async scanTemplate(bytes: Buffer, fileName: string): Promise<ScannedTemplate> {
    return scanned((await (await this.piscina).run({ bytes, fileName }, { name: 'scan' })) as ScanAnswer);
  }

  async close() {
    const pool = this.pool;
    this.pool = null;
    await (await pool)?.destroy();
  }
}
