import type { IpcMain, IpcMainInvokeEvent, Shell } from 'electron';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Engine } from '../engine/engine.js';
import { failure, success } from '../engine/core/envelope.js';
import { safeFileName } from '../engine/core/file-result.js';
import { OPEN_TEMPLATE_CHANNEL, type EngineEvent, type WireAnswer } from '../engine/wire.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Office saves in steps (a temporary file, then a rename): act once the file has been quiet this long. */
const SETTLE_MS = 700;

export interface TemplateEditingDeps {
  ipcMain: Pick<IpcMain, 'handle'>;
  shell: Pick<Shell, 'openPath'>;
  /** The engine as it starts (a window may ask before it is up). */
  engine: Promise<Engine>;
  /** Where the files being edited live (one folder a report, under the app's data folder). */
  dir: string;
  isTrusted: (event: IpcMainInvokeEvent) => boolean;
  sessionOf: (webContentsId: number) => string | null;
  /** Tells the window what became of a save in Office. */
  send: (webContentsId: number, event: EngineEvent) => void;
}

/**
 * "Open in Word/Excel/PowerPoint": the template is written to a working folder and opened in the
 * user's own application; each save there is picked up and uploaded as a new version, checked like
 * any upload (a save with unknown tags is reported and the saved version stays). The upload runs
 * as the window's signed-in user, so a save is what that user may do.
 */
export function registerTemplateEditing(deps: TemplateEditingDeps) {
  const watchers = new Map<string, FSWatcher>();
  const hashes = new Map<string, string>();
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  const pickUp = async (owner: number, reportId: string, path: string, fileName: string) => {
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      return; // Mid-save: the next change event reads it whole.
    }
    if (!bytes.length || hashes.get(path) === sha(bytes)) return;
    hashes.set(path, sha(bytes));
    const token = deps.sessionOf(owner);
    const result = await (
      await deps.engine
    ).invoke(
      'app.reports.uploadTemplate',
      { params: { id: reportId }, body: { fileName, content: bytes.toString('base64') } },
      { token: token ?? undefined, transport: 'ipc', client: `ipc:${owner}` },
    );
    const envelope = result.envelope;
    deps.send(owner, {
      type: 'template.synced',
      payload: {
        reportId,
        ok: result.status === 200,
        message: envelope.error ?? `Saved ${fileName} from Office as a new version.`,
        problems: envelope.errorDetails ?? [],
      },
    });
  };

  deps.ipcMain.handle(OPEN_TEMPLATE_CHANNEL, async (event, reportId: unknown): Promise<WireAnswer> => {
    if (!deps.isTrusted(event)) return { status: 403, envelope: failure('Untrusted sender') };
    if (typeof reportId !== 'string' || !UUID.test(reportId))
      return {
        status: 400,
        envelope: failure('reportId must be a report id', [{ field: 'reportId', message: 'must be a UUID' }]),
      };
    const owner = event.sender.id;
    const token = deps.sessionOf(owner);
    const result = await (
      await deps.engine
    ).invoke(
      'app.reports.downloadTemplate',
      { params: { id: reportId } },
      { token: token ?? undefined, transport: 'ipc', client: `ipc:${owner}` },
    );
    if (!result.file) return { status: result.status, envelope: result.envelope };
    const folder = join(deps.dir, reportId);
    await mkdir(folder, { recursive: true });
    const fileName = safeFileName(result.file.fileName);
    const path = join(folder, fileName);
    await writeFile(path, result.file.data);
    hashes.set(path, sha(result.file.data));
    if (!watchers.has(path)) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      // The folder is watched, not the file: Office replaces the file on save (a rename).
      const watcher = watch(folder, (_kind, changed) => {
        if (changed && changed.toString() !== fileName) return;
        clearTimeout(timer);
        timer = setTimeout(() => void pickUp(owner, reportId, path, fileName), SETTLE_MS);
      });
      watchers.set(path, watcher);
    }
    const error = await deps.shell.openPath(path);
    if (error)
      return {
        status: 409,
        envelope: failure(
          `No application on this computer opens ${fileName}: ${error}. Install Office or LibreOffice, or download the template instead.`,
        ),
      };
    return { status: 200, envelope: success({ path }) };
  });

  return {
    close() {
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
