// The client the bench's per-call figures are read with: node:http on one kept-alive connection, in
// a process of its own. fetch (undici) spends half a millisecond of its own on a POST here (its
// body through WHATWG streams: 0.82 ms a POST to a server that answers at once, against 0.31 ms for
// node:http), and the bench's own process, its heap grown by the parts before, spent 0.9 ms of CPU
// a call: either would be charged to the server in a figure of two milliseconds. Beside it,
// `floorServer`: the same calls answered by a server that does nothing, in a process of its own,
// so a figure reads as the floor plus the product's own share.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface TimedCalls {
  /** The median of the timed calls, in ms (the warming calls before them are not timed). */
  p50: number;
  status: number;
  /** The last call's answer, parsed. */
  answer: unknown;
}

/** The calling loop, run by a fresh Node: its arguments in BENCH_CALLS (JSON), its answer on stdout. */
const LOOP = `
const http = require('node:http');
const { base, method, path, headers, body, times, warm } = JSON.parse(process.env.BENCH_CALLS);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const text = body === undefined ? undefined : JSON.stringify(body);
const sent = { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }) };
const once = () => new Promise((resolve, reject) => {
  const req = http.request(new URL(path, base), { method, agent, headers: sent }, (res) => {
    let answer = '';
    res.setEncoding('utf8');
    res.on('data', (c) => (answer += c));
    res.on('end', () => resolve({ status: res.statusCode, answer }));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end(text);
});
(async () => {
  let last = await once();
  for (let i = 1; i < warm; i++) last = await once();
  const ms = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    last = await once();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  agent.destroy();
  process.stdout.write(JSON.stringify({ p50: ms[Math.floor(ms.length / 2)], status: last.status, answer: JSON.parse(last.answer) }));
})().catch((e) => { console.error(e); process.exit(1); });`;

/** `times` calls of one request, one after another, timed by a client in a process of its own. */
export function timeCalls(o: {
  base: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  times: number;
  /** Calls made before the timed ones: a fresh process's client is not compiled yet (default 1). */
  warm?: number;
}): Promise<TimedCalls> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LOOP], {
      env: { ...process.env, BENCH_CALLS: JSON.stringify({ headers: {}, warm: 1, ...o }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as TimedCalls) : reject(new Error(`the timing client ended with ${code}`)),
    );
  });
}

/** A server that reads the request and answers `answer` at once, in a process of its own. */
export async function floorServer(answer: unknown): Promise<{ url: string; stop(): void }> {
  const program = `
    const body = ${JSON.stringify(JSON.stringify(answer))};
    require('node:http').createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    }).listen(0, '127.0.0.1', function () { console.log('LISTENING http://127.0.0.1:' + this.address().port); });`;
  const child = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor server ended (${code}) before it listened`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('LISTENING ')) resolve(line.slice('LISTENING '.length));
    });
  });
  return { url, stop: () => void child.kill() };
}

/**
 * The calling loop as a process that stays: `start()` has it call one request after another,
 * `stop()` ends that after the call in flight and answers each call's time in ms. A figure read in
 * windows (calls while something else runs, and calls while nothing does, taken in turns) comes from
 * one warmed client.
 */
export interface CallingLoop {
  start(): void;
  stop(): Promise<{ ms: number[]; status: number }>;
  close(): void;
}

const STEADY = `
const http = require('node:http');
const { base, method, path, headers } = JSON.parse(process.env.BENCH_CALLS);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const once = () => new Promise((resolve, reject) => {
  const req = http.request(new URL(path, base), { method, agent, headers }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end();
});
let running = null;
const loop = async (state) => {
  while (!state.stopped) {
    const t = performance.now();
    state.status = await once();
    state.ms.push(performance.now() - t);
  }
};
require('node:readline').createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line === 'start') {
    const state = { stopped: false, ms: [], status: 0 };
    running = { state, done: loop(state) };
  } else if (line === 'stop' && running) {
    const { state, done } = running;
    running = null;
    state.stopped = true;
    await done;
    process.stdout.write(JSON.stringify({ ms: state.ms, status: state.status }) + '\\n');
  }
});
process.stdin.on('end', () => { agent.destroy(); process.exit(0); });`;

export async function callingLoop(o: {
  base: string;
  method: 'GET';
  path: string;
  headers?: Record<string, string>;
}): Promise<CallingLoop> {
  const child = spawn(process.execPath, ['-e', STEADY], {
    env: { ...process.env, BENCH_CALLS: JSON.stringify({ headers: {}, ...o }) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answers: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => answers.shift()?.(line));
  let ended: Error | null = null;
  child.once('exit', (code) => {
    ended = new Error(`the calling loop ended with ${code}`);
    for (const answer of answers.splice(0)) answer('');
  });
  return {
    start: () => void child.stdin.write('start\n'),
    stop: () =>
      new Promise((resolve, reject) => {
        answers.push((line) => (ended ? reject(ended) : resolve(JSON.parse(line) as { ms: number[]; status: number })));
        child.stdin.write('stop\n');
      }),
    close: () => void child.stdin.end(),
  };
}
