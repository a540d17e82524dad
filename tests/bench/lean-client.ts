// The client the bench's per-call figures are read with: node:http on one kept-alive connection.
// fetch (undici) spends half a millisecond of its own on a POST here (its body through WHATWG
// streams: 0.82 ms a POST to a server that answers at once, against 0.31 ms for node:http), which
// would be charged to the server in a figure of two milliseconds. Beside it, `floorServer`: the
// same client, the same bytes, answered by a server in a process of its own that does nothing, so
// a figure can be read as the floor plus the product's own share.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';

export interface LeanClient {
  /** The parsed JSON answer and its status; the body, when given, sent as JSON. */
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }>;
  close(): void;
}

export function leanClient(base: string, headers: Record<string, string> = {}): LeanClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    call: (method, path, body) =>
      new Promise((resolve, reject) => {
        const text = body === undefined ? undefined : JSON.stringify(body);
        const req = http.request(
          new URL(path, base),
          {
            method,
            agent,
            headers: {
              ...headers,
              ...(text === undefined
                ? {}
                : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }),
            },
          },
          (res) => {
            let answer = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (answer += chunk));
            res.on('end', () => {
              try {
                resolve({ status: res.statusCode ?? 0, json: JSON.parse(answer) as unknown });
              } catch (e) {
                reject(e as Error);
              }
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(text);
      }),
    close: () => agent.destroy(),
  };
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
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('LISTENING ')) resolve(line.slice('LISTENING '.length));
    });
  });
  return { url, stop: () => void child.kill() };
}
