import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { folderDatabaseUrl } from './test-database.js';

/** An engine in its own process (engine-child.mts), to be killed with SIGKILL as a crash would. */
export interface EngineProcess {
  /** Settles with the id of the request once it is well under way (`BROADSHEET_TEST_PROGRESS` files made). */
  running: Promise<string>;
  /** SIGKILL, settling once the process is gone. */
  kill(): Promise<void>;
}

/** Starts an engine process on a data folder; `env` adds the child's settings (BROADSHEET_TEST_*). */
export function startEngineProcess(dataDir: string, key: Buffer, env: Record<string, string> = {}): EngineProcess {
  // tsx keeps a cache in the temporary folder: the child's goes inside the data folder, removed with it.
  const childTmp = join(dataDir, 'tmp');
  mkdirSync(childTmp, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/engine-child.mts'], {
    env: {
      ...process.env,
      TMPDIR: childTmp,
      BROADSHEET_TEST_DATA: dataDir,
      BROADSHEET_TEST_KEY: key.toString('hex'),
      // On PostgreSQL, the database the folder's engine in this process opened.
      BROADSHEET_TEST_DATABASE: folderDatabaseUrl(dataDir) ?? '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const running = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = out.match(/RUNNING (\S+)/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the engine process ended (${code}) before the run got going`)));
  });
  running.catch(() => {}); // a test that waits on other signs (mail) never reads it
  return {
    running,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
