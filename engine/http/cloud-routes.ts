import type { FastifyInstance } from 'fastify';
import { toPage } from './to-page.js';
import type { EngineServices } from '../ops/context.js';
import { CALLBACK_PATH, CloudError } from '../features/storage/cloud/cloud-account.js';
import { finishConnect } from '../features/storage/cloud/providers.js';

// Where a cloud drive's sign-in page sends the browser back: a page, not a call answering the JSON
// envelope (as the company sign-in's routes are). The one-time state decides which storage service
// is connected; the browser then lands on the storage screen, told how it went by a fixed word.

export function registerCloudRoutes(app: FastifyInstance, services: () => EngineServices) {
  app.get<{ Querystring: Record<string, string | undefined> }>(CALLBACK_PATH, async (req, reply) => {
    const s = services();
    const { code, state, error } = req.query;
    // The person declined, or the provider refused the app: nothing is connected.
    if (error || !code || !state) {
      s.log.warn('A cloud drive connection was not made', {
        error: error ?? 'no code',
        detail: req.query.error_description,
      });
      return toPage(reply, req, '#/storage/problem/declined');
    }
    try {
      const id = await finishConnect(s, code, state);
      return toPage(reply, req, `#/storage/connected/${encodeURIComponent(id)}`);
    } catch (e) {
      s.log.warn('A cloud drive connection failed', { error: (e as Error).message });
      return toPage(
        reply,
        req,
        `#/storage/problem/${e instanceof CloudError && e.status === 400 ? 'expired' : 'provider'}`,
      );
    }
  });
}
