import { copyFile, mkdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { safeFileName } from '../../core/file-result.js';
import type { TaskReportRow } from '../tasks/tasks.entity.js';
import { StorageService } from './storage.entity.js';
import { confinedRelative, folderUnder } from './storage-paths.js';
import { ftpClient, sftpClient } from './storage.rules.js';

/** A file of a run, on disk under the data folder. */
export interface RunFile {
  name: string;
  localPath: string;
}

/**
 * Puts a task report's files where it says: each storage service entry's path, under that
 * service's root (a folder here, or an FTP base directory), names made safe. Answers the problems
 * (the run ends `warning` with them); one destination failing does not stop the others.
 */
export async function deliverToStorage(ctx: OpContext, tr: TaskReportRow, files: RunFile[], log: (line: string) => void): Promise<string[]> {
  const entries = [...tr.options.storageServices].sort((a, b) => a.order - b.order);
  if (!entries.length || !files.length) return [];
  const services = await ctx.db.getRepository(StorageService).findBy({ id: In(entries.map((e) => e.fileStorageServiceId)) });
  const problems: string[] = [];
  for (const e of entries) {
    const x = services.find((s) => s.id === e.fileStorageServiceId);
    const rel = confinedRelative(e.path);
    if (!x) {
      problems.push('a storage service of the task no longer exists');
      continue;
    }
    if (rel === null) {
      problems.push(`the path "${e.path}" would leave the root of “${x.name}”`);
      continue;
    }
    try {
      if (x.type === 'Folder') {
        const dir = folderUnder(x.rootPath ?? '', rel);
        if (!dir) throw new Error(`the path "${e.path}" would leave the folder's root`);
        await mkdir(dir, { recursive: true });
        for (const f of files) await copyFile(f.localPath, join(dir, safeFileName(f.name)));
      } else if (x.type === 'SFTP') {
        const sftp = await sftpClient(ctx, x);
        try {
          const dir = posix.join(x.rootPath ?? '/', rel);
          await sftp.mkdir(dir, true);
          for (const f of files) await sftp.put(f.localPath, posix.join(dir, safeFileName(f.name)));
        } finally {
          await sftp.end().catch(() => undefined);
        }
      } else {
        const client = await ftpClient(ctx, x);
        try {
          if (rel) await client.ensureDir(rel);
          for (const f of files) await client.uploadFrom(f.localPath, safeFileName(f.name));
        } finally {
          client.close();
        }
      }
      log(`${files.length} file${files.length === 1 ? '' : 's'} put in “${x.name}”${rel ? ` under ${rel}` : ''}`);
    } catch (err) {
      const msg = (err as Error).message.replace(/[\r\n]+/g, ' ').slice(0, 300);
      log(`Files not put in “${x.name}”: ${msg}`);
      problems.push(`“${x.name}”: ${msg}`);
    }
  }
  return problems;
}
