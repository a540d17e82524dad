import type { FastifyInstance } from 'fastify';
import { SECURITY_HEADERS } from '../security-headers.js';
import { bearer, send, type EngineAt } from '../reply.js';

/**
 * Engine events (import progress, reloads, report and run progress) as server-sent events, for the
 * served UI; each event only if the caller's own lists would show what it is about.
 */
export async function eventStream(app: FastifyInstance, o: { engine: EngineAt }) {
  app.get('/api/app/events', async (req, reply) => {
    const engine = o.engine();
    const check = await engine.invoke('app.auth.me', {}, { token: bearer(req), transport: 'http', client: req.ip });
    if (check.status !== 200) return send(reply, check.status, check.envelope);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
    });
    res.write(': connected\n\n');
    const credential = { token: bearer(req), transport: 'http' as const, client: req.ip };
    const off = engine.watch(
      () => credential,
      (event) => res.write(`data: ${JSON.stringify(event)}\n\n`),
    );
    const ping = setInterval(() => res.write(': ping\n\n'), 25_000);
    req.raw.on('close', () => {
      off();
      clearInterval(ping);
    });
  });
}
