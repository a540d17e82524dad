import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Shell } from 'electron';
import { failure } from '../engine/core/envelope.js';
import type { WireAnswer } from '../engine/wire.js';

// RFC 8252's loopback redirect for the desktop's sign-ins in the system browser (company sign-in,
// connecting a cloud drive): a listener on 127.0.0.1, on a port the system gave, for one redirect.

/** How long the person has to sign in at the provider before the loopback listener gives up. */
const WAIT_MS = 10 * 60_000;

const PAGE = (text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Broadsheet</title></head><body style="font-family:sans-serif;margin:3em"><p>${text}</p></body></html>`;

/** A loopback listener for one redirect: its URI, and the callback URL the browser brings. */
export async function loopbackRedirect(): Promise<{ uri: string; callback: Promise<URL>; close: () => void }> {
  let answer!: (url: URL) => void;
  let fail!: (e: Error) => void;
  const callback = new Promise<URL>((resolve, reject) => ((answer = resolve), (fail = reject)));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(PAGE('You can close this tab and go back to Broadsheet.'));
    answer(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const timer = setTimeout(() => fail(new Error('The sign-in took longer than ten minutes')), WAIT_MS);
  timer.unref();
  const close = () => {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  };
  return { uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, callback, close };
}

/**
 * One round trip through the system browser: `start` is given the loopback address and answers the
 * engine's reply, `url` reads the page to open from it, and the browser's return goes to `finish`.
 * A refusal to start is answered as it came; a return that never comes answers 408.
 */
export async function throughSystemBrowser(
  shell: Pick<Shell, 'openExternal'>,
  start: (redirectUri: string) => Promise<WireAnswer>,
  url: (data: unknown) => string,
  finish: (callbackUrl: string) => Promise<WireAnswer>,
): Promise<WireAnswer> {
  const loop = await loopbackRedirect();
  try {
    const started = await start(loop.uri);
    if (started.status !== 200) return { status: started.status, envelope: started.envelope };
    await shell.openExternal(url(started.envelope.data));
    return await finish((await loop.callback).toString());
  } catch (e) {
    return { status: 408, envelope: failure((e as Error).message) };
  } finally {
    loop.close();
  }
}
