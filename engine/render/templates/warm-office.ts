import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// LibreOffice kept warm. A conversion by a new LibreOffice costs its start (most of a small file's
// time); a LibreOffice already running with the same profile takes a second one's command line
// through its own pipe, converts, and answers when the file is written, so the second process
// lives a few milliseconds. The warm one is kept from closing by a document it holds open (a
// headless LibreOffice with nothing open quits after the first conversion handed to it). One warm
// LibreOffice per render thread, each with its own profile, made once; stopped when idle.
//
// It is started through a small Node keeper, which also starts each conversion's hand-off: a
// process started by the engine costs its fork, which grows with the engine's memory (70 ms at
// 2 GiB, against 2 ms from the keeper), and the keeper ends LibreOffice when this process ends,
// kill -9 included (it sees its pipe to us close): a headless LibreOffice holding a document open
// would otherwise outlive the engine for good.

/**
 * The keeper: starts LibreOffice in a process group of its own; runs each hand-off it is sent
 * (`{ id, args, timeoutMs }`, answered `{ id, error, killed }`); ends the group and removes its
 * folder when we go or say so.
 *
 * Outside Windows the hand-offs are started by a shell the keeper keeps for them. A process
 * started by Node costs a fork of Node itself, whose pages are then copied one by one as it runs
 * on: 4.6–5 ms a hand-off where a page fault is dear (a virtual machine here), against 1.5 ms for
 * the same start from sh; a warm PDF takes 35–45 ms in all. The shell answers each hand-off's
 * process id as it starts (a conversion that takes too long is ended by it) and its status as it
 * ends; what the hand-off says on stderr goes to a file of its own, read if it failed.
 */
const KEEPER = `
const { spawn, execFile, execFileSync } = require('node:child_process');
const { readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const [launcher, program, ...args] = JSON.parse(process.env.BROADSHEET_OFFICE_ARGS);
const dir = process.env.BROADSHEET_OFFICE_DIR;
let office;
// 81 is LibreOffice asking to be started again (it does once, after making a new profile), as its launcher would.
const start = () => {
  office = spawn(program, args, { detached: process.platform !== 'win32', stdio: 'ignore', windowsHide: true });
  office.on('exit', (code) => (code === 81 ? start() : process.exit(code ?? 1)));
};
start();
const runs = new Map();
let shell = null;
const end = () => {
  try {
    if (process.platform === 'win32') execFileSync('taskkill', ['/T', '/F', '/PID', String(office.pid)], { stdio: 'ignore' });
    else process.kill(-office.pid, 'SIGKILL');
  } catch {}
  for (const run of runs.values()) stopRun(run);
  try { shell?.kill('SIGKILL'); } catch {}
  // Its profile and held document go with it (retried: the killed LibreOffice lets go of them as it ends).
  try { rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); } catch {}
  process.exit(0);
};
const stopRun = (run) => { try { if (run.pid) process.kill(run.pid, 'SIGKILL'); } catch {} };
const finish = (id, error, killed) => {
  const run = runs.get(id);
  if (!run) return;
  runs.delete(id);
  clearTimeout(run.timer);
  try { rmSync(run.stderr, { force: true }); } catch {}
  process.send({ id, error, killed });
};
// A word for sh, quoted whole: a quote within it closes the quoting, is given in double quotes, and reopens it.
const Q = "'";
const quoted = (word) => Q + String(word).split(Q).join(Q + '"' + Q + '"' + Q) + Q;
const NL = String.fromCharCode(10);
const heardFromShell = (line) => {
  const [what, id, value] = line.split(' ');
  const run = runs.get(Number(id));
  if (!run) return;
  if (what === 'started') {
    run.pid = Number(value);
    if (run.killed) stopRun(run);
    return;
  }
  let said = '';
  try { said = readFileSync(run.stderr, 'utf8').trim(); } catch {}
  finish(Number(id), value === '0' ? null : (said || 'The hand-off to LibreOffice ended with status ' + value).slice(0, 300), run.killed);
};
const handOffShell = () => {
  if (shell) return shell;
  const started = spawn('/bin/sh', [], { stdio: ['pipe', 'pipe', 'ignore'] });
  // A shell that has ended refuses what is written to it: its end answers its hand-offs.
  started.stdin.on('error', () => {});
  let heard = '';
  started.stdout.setEncoding('utf8');
  started.stdout.on('data', (chunk) => {
    heard += chunk;
    for (let at = heard.indexOf(NL); at >= 0; at = heard.indexOf(NL)) {
      heardFromShell(heard.slice(0, at));
      heard = heard.slice(at + 1);
    }
  });
  started.on('exit', () => {
    if (shell === started) shell = null;
    for (const [id, run] of [...runs]) if (run.shell === started) finish(id, 'The shell that hands conversions to LibreOffice ended', false);
  });
  shell = started;
  return started;
};
process.on('disconnect', end);
process.on('message', (m) => {
  if (m === 'stop') return end();
  if (process.platform === 'win32')
    return execFile(launcher, m.args, { timeout: m.timeoutMs, killSignal: 'SIGKILL', windowsHide: true }, (error, _out, stderr) =>
      process.send({ id: m.id, error: error ? String(stderr || error.message).trim().slice(0, 300) : null, killed: Boolean(error && error.killed) }),
    );
  const run = { stderr: join(dir, 'hand-off-' + m.id + '.err'), pid: 0, killed: false, timer: null, shell: handOffShell() };
  run.timer = setTimeout(() => {
    run.killed = true;
    if (run.pid) return stopRun(run);
    // Never started: the shell takes no more commands. It is ended; the next hand-off starts another.
    if (shell === run.shell) shell = null;
    try { run.shell.kill('SIGKILL'); } catch {}
    finish(m.id, 'The hand-off to LibreOffice did not start', true);
  }, m.timeoutMs);
  runs.set(m.id, run);
  const command = [launcher, ...m.args].map(quoted).join(' ');
  run.shell.stdin.write(
    command + ' </dev/null >/dev/null 2>' + quoted(run.stderr) + ' & echo "started ' + m.id + ' $!"; wait $!; echo "ended ' + m.id + ' $?"' + NL,
  );
});
`;

/** What the keeper answers for one hand-off. */
interface HandOffAnswer {
  id: number;
  error: string | null;
  killed: boolean;
}

/** How long a warm LibreOffice may take to start (a first start makes its profile). */
const START_MS = 90_000;
/** Unused this long, the warm LibreOffice is ended: a desktop gets its memory back. */
const IDLE_MS = 60_000;

/** LibreOffice's own program beside its launcher (soffice.bin), so that the process we end is the one that converts. */
function officeProgram(soffice: string): string {
  try {
    const real = realpathSync(soffice);
    for (const name of ['soffice.bin', 'soffice.bin.exe'])
      if (existsSync(join(dirname(real), name))) return join(dirname(real), name);
    return real;
  } catch {
    return soffice;
  }
}

/**
 * What hands a conversion to the warm LibreOffice: its small launcher (oosplash, beside soffice.bin on
 * Linux, speaks the pipe without loading LibreOffice and without the shell script in front of it),
 * or the soffice program where there is none.
 */
function handOffProgram(soffice: string): string {
  try {
    const oosplash = join(dirname(realpathSync(soffice)), 'oosplash');
    return existsSync(oosplash) ? oosplash : soffice;
  } catch {
    return soffice;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One LibreOffice kept running for conversions, through its keeper. */
export class WarmOffice {
  private keeper: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private dir: string | null = null;
  private idle: NodeJS.Timeout | null = null;
  /** One conversion at a time: LibreOffice converts one request after another anyway. */
  private queue: Promise<unknown> = Promise.resolve();
  private asked = 0;

  constructor(readonly soffice: string) {}

  /** The profile argument both the warm LibreOffice and each conversion name: it is what finds the first. */
  private get profileArgs(): string[] {
    const dir = this.dir!;
    return [
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      `-env:UNO_SHARED_PACKAGES_CACHE=${pathToFileURL(join(dir, 'shared-packages')).href}`,
    ];
  }

  private get env(): NodeJS.ProcessEnv {
    return { ...process.env, HOME: this.dir!, TMPDIR: this.dir! };
  }

  /** Starts the warm LibreOffice and waits until it holds its document open (its lock file is written then). */
  private start(): Promise<void> {
    this.dir ??= mkdtempSync(join(tmpdir(), 'broadsheet-office-'));
    const held = join(this.dir, 'held.txt');
    writeFileSync(held, '');
    const lock = join(this.dir, '.~lock.held.txt#');
    rmSync(lock, { force: true });
    const keeper = spawn(process.execPath, ['-e', KEEPER], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      env: {
        ...this.env,
        ELECTRON_RUN_AS_NODE: '1',
        BROADSHEET_OFFICE_DIR: this.dir,
        BROADSHEET_OFFICE_ARGS: JSON.stringify([
          handOffProgram(this.soffice),
          officeProgram(this.soffice),
          '--headless',
          '--norestore',
          '--nologo',
          '--nodefault',
          ...this.profileArgs,
          held,
        ]),
      },
      windowsHide: true,
    });
    keeper.unref();
    (keeper.channel as { unref?: () => void } | undefined)?.unref?.();
    this.keeper = keeper;
    let ended = false;
    keeper.once('exit', () => {
      ended = true;
      if (this.keeper === keeper) this.forget();
    });
    return (async () => {
      const until = Date.now() + START_MS;
      while (!existsSync(lock)) {
        if (ended) throw new Error('LibreOffice ended as it started');
        if (Date.now() > until) throw new Error(`LibreOffice did not start within ${START_MS / 1000} s`);
        await sleep(50);
      }
    })();
  }

  /** Forgets the warm LibreOffice (ended, or to be started afresh). */
  private forget() {
    this.keeper = null;
    this.ready = null;
  }

  /** Ends the warm LibreOffice and removes its folder; the next conversion starts another. */
  stop() {
    if (this.idle) clearTimeout(this.idle);
    const keeper = this.keeper;
    this.forget();
    if (keeper?.connected) keeper.send('stop', () => {});
    else keeper?.kill('SIGKILL');
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  /** The warm LibreOffice's process id while it runs (tests pause or end it to fault it for real). */
  get pid(): number | undefined {
    return this.keeper?.pid;
  }

  /**
   * Converts `input` into `outDir` with a LibreOffice `--convert-to` argument, through the warm
   * LibreOffice; a conversion that takes longer than `timeoutMs` ends it (hung) and fails alone.
   */
  convert(input: string, outDir: string, convertTo: string, timeoutMs: number): Promise<void> {
    const run = this.queue.then(() => this.convertNow(input, outDir, convertTo, timeoutMs));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Has the keeper run LibreOffice's hand-off with these arguments; a keeper gone answers as a failure. */
  private handOff(args: string[], timeoutMs: number): Promise<HandOffAnswer> {
    const keeper = this.keeper;
    const id = ++this.asked;
    return new Promise((resolve) => {
      if (!keeper?.connected) return resolve({ id, error: 'LibreOffice ended before the conversion', killed: false });
      // The pipe to the keeper holds this process open only while an answer is awaited.
      const channel = keeper.channel as { ref?: () => void; unref?: () => void } | undefined;
      channel?.ref?.();
      const done = (answer: HandOffAnswer) => {
        channel?.unref?.();
        keeper.off('message', heard);
        keeper.off('exit', gone);
        resolve(answer);
      };
      const heard = (m: HandOffAnswer) => m.id === id && done(m);
      const gone = () => done({ id, error: 'LibreOffice ended during the conversion', killed: false });
      keeper.on('message', heard);
      keeper.once('exit', gone);
      keeper.send({ id, args, timeoutMs });
    });
  }

  private async convertNow(input: string, outDir: string, convertTo: string, timeoutMs: number) {
    if (this.idle) clearTimeout(this.idle);
    try {
      this.ready ??= this.start();
      await this.ready.catch((e: unknown) => {
        this.stop();
        throw e;
      });
      const answer = await this.handOff(
        ['--headless', '--norestore', ...this.profileArgs, '--convert-to', convertTo, '--outdir', outDir, input],
        timeoutMs,
      );
      if (answer.error !== null) {
        // Hung or gone: this file fails with why, and the next one starts a new LibreOffice.
        this.stop();
        throw new Error(
          answer.killed
            ? `LibreOffice did not finish within ${Math.round(timeoutMs / 1000)} s, so it was ended`
            : answer.error,
        );
      }
      // A warm LibreOffice that died during the conversion was replaced by the converting process
      // itself, which has now ended too: the next conversion starts a warm one again.
      if (!this.keeper) this.stop();
    } finally {
      if (this.keeper) this.idle = setTimeout(() => this.stop(), IDLE_MS).unref();
    }
  }
}
