import { In } from 'typeorm';
import { Outbox } from '../../engine/model/mail.entity.js';
import { startTestServer, type TestServer } from './test-server.js';
import { fixtures, type Fixtures } from './samples.js';
import { startSmtp, type TestSmtp } from './smtp.js';
import { until } from './until.js';
import { unitsReport } from './units-report.js';

/**
 * Waits until the outbox has nothing left to send (every message sent or failed for good). The test
 * SMTP server records a message before it answers 250, so after this everything that will ever
 * arrive has arrived: "nothing more came" is then a fact, not a guess after a sleep.
 */
export async function outboxIdle(s: TestServer): Promise<void> {
  await until(
    () => s.engine.services.db.getRepository(Outbox).countBy({ status: In(['queued', 'sending']) }),
    (n) => n === 0,
  );
}

/**
 * What the mail tests start from: a real SMTP server on loopback, an engine whose outbox retries
 * quickly, the fixtures, a connected project and its units report.
 */
export async function startMailing(): Promise<{
  smtp: TestSmtp;
  s: TestServer;
  f: Fixtures;
  projectId: string;
  reportId: string;
}> {
  const smtp = await startSmtp();
  const s = await startTestServer({ mail: { baseDelayMs: 20, maxDelayMs: 200 } });
  const f = await fixtures(s);
  const projectId = (await f.make.connected()).projectId;
  return { smtp, s, f, projectId, reportId: await unitsReport(s, projectId) };
}
