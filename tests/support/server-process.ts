import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** A server in a process of its own (server-child.mts), driven by commands and killed with SIGKILL. */
export interface ServerProcess {
  nodeId: string;
  url: string;
  /** Its process id (a bench reads its memory from outside). */
  pid: number;
  /** Sends a command (see server-child.mts) and answers what the server answered. */
  command(name: string, arg?: string | number): Promise<string>;
  kill(): Promise<void>;
  /** Ends it as an operator would (SIGTERM), if it still runs. */
  stop(): Promise<void>;
  /** Pauses it whole (SIGSTOP), as a virtual machine paused is, and lets it go on (SIGCONT). */
  pause(): void;
  resume(): void;
  /** Whether the process still runs (it has not exited). */
  alive(): boolean;
}

export async function startServerProcess(o: {
  dataDir: string;
  database: string;
  nodeId: string;
  key: Buffer;
  /** What node runs (default: the test server child under tsx) and the settings it reads. */
  program?: { args: string[]; env: Record<string, string> };
  /** More settings for the test server child (BROADSHEET_TEST_LEASE_MS…). */
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  // tsx keeps a cache in the temporary folder: the child's goes in the data folder, removed with it.
  const childTmp = join(o.dataDir, 'tmp', o.nodeId);
  mkdirSync(childTmp, { recursive: true });
  const program = o.program ?? {
    args: ['--import', 'tsx', 'tests/support/server-child.mts'],
    env: {
      BROADSHEET_TEST_DATA: o.dataDir,
      BROADSHEET_TEST_DATABASE: o.database,
      BROADSHEET_TEST_NODE: o.nodeId,
      BROADSHEET_TEST_KEY: o.key.toString('hex'),
      ...o.env,
    },
  };
  const child: ChildProcess = spawn(process.execPath, program.args, {
    env: { ...process.env, TMPDIR: childTmp, ...program.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // A command to a server the test killed finds its pipe closed: that command fails, not the run.
  child.stdin!.on('error', (e: Error) => {
    for (const answer of waiting.values()) answer(`ERROR ${e.message}`);
    waiting.clear();
  });
  const exited = new Promise((r) => child.once('exit', r));
  const waiting = new Map<string, (answer: string) => void>();
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        const listening = /^LISTENING (\S+)$/.exec(line);
        if (listening) resolve(listening[1]);
        const space = line.indexOf(' ');
        const answer = waiting.get(line.slice(0, space));
        if (answer) {
          waiting.delete(line.slice(0, space));
          answer(line.slice(space + 1));
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`server ${o.nodeId} ended (${code}) before it listened`)));
  });
  let n = 0;
  return {
    nodeId: o.nodeId,
    url,
    pid: child.pid!,
    command(name, arg = '') {
      const id = `c${++n}`;
      return new Promise<string>((resolve, reject) => {
        waiting.set(id, (answer) =>
          answer.startsWith('ERROR') ? reject(new Error(`${o.nodeId} ${name}: ${answer}`)) : resolve(answer),
        );
        child.stdin!.write(`${id} ${name} ${arg}\n`);
      });
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    pause() {
      child.kill('SIGSTOP');
    },
    resume() {
      child.kill('SIGCONT');
    },
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The API of a server as its owner calls it: answers the data, failing on anything but success. */
export function ownerApi(url: string, key: string) {
  return {
    async ok<T = any>(method: string, path: string, body?: unknown, query?: Record<string, string>): Promise<T> {
      const qs = query ? `?${new URLSearchParams(query).toString()}` : '';
      const res = await fetch(url + path + qs, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
      return (JSON.parse(text) as { data: T }).data;
    },
  };
}
