import type { TestServer } from './test-server.js';

const FINISHED = ['completed', 'warning', 'failed', 'aborted'];

/** Polls a request until it ends (or `until` says so), failing after `timeoutMs`. */
export async function waitForRequest(
  s: TestServer,
  id: string,
  until: (r: any) => boolean = (r) => FINISHED.includes(r.status),
  timeoutMs = 120_000,
): Promise<any> {
  const started = Date.now();
  for (;;) {
    const r = await s.ok('GET', `/api/v1/ondemand/requests/${id}`);
    if (until(r)) return r;
    if (Date.now() - started > timeoutMs) throw new Error(`request ${id} still ${r.status} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 50));
  }
}
