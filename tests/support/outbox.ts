import { In } from 'typeorm';
import { Outbox } from '../../engine/features/mail/mail.entity.js';
import type { TestServer } from './test-server.js';
import { until } from './until.js';

/**
 * Waits until the outbox has nothing left to send (every message sent or failed for good). The test
 * SMTP server records a message before it answers 250, so after this everything that will ever
 * arrive has arrived: "nothing more came" is then a fact, not a guess after a sleep.
 */
export async function outboxIdle(s: TestServer): Promise<void> {
  await until(() => s.engine.services.db.getRepository(Outbox).countBy({ status: In(['queued', 'sending']) }), (n) => n === 0);
}
