import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The built server, as `npm run serve` starts it. */
export const SERVE = join(__dirname, '..', '..', 'dist', 'engine', 'serve.cjs');

/** `serve` run to its end (it refuses to start): its exit code and what it printed. */
export function serveRefused(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [SERVE, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    c.stdout!.on('data', (b: Buffer) => (output += b.toString()));
    c.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    c.on('exit', (code) => resolve({ code, output }));
  });
}
