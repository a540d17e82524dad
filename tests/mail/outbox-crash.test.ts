// 200 recipients, the SMTP server refusing the first 50 messages with 451, and the engine killed
// with SIGKILL midway: after a restart every recipient has their mail, and the only duplicates are
// messages that were in flight at the kill, sent again with the same Message-ID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { startEngineProcess } from '../support/engine-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures } from '../support/samples.js';
import { startSmtp, type TestSmtp, addLoopbackMailServer } from '../support/smtp.js';
import { Outbox } from '../../engine/model/mail.entity.js';

const key = randomBytes(32);
const keys = { load: async () => key, save: async () => {} };
let s: TestServer;
let smtp: TestSmtp;
const RECIPIENTS = 200;

beforeAll(async () => {
  smtp = await startSmtp();
  // Nothing runs in this first engine: the run is queued, then picked up by the engine we kill.
  s = await startTestServer({ secretKeys: keys, keepDataDir: true, concurrentRequests: 0 });
});
afterAll(async () => {
  await s.stop();
  await rm(s.dataDir, { recursive: true, force: true });
  await smtp.close();
});

describe('the outbox across a crash', () => {
  it('delivers to all 200 recipients exactly once, except messages in flight at the kill, resent with the same Message-ID', async () => {
    const f = await fixtures(s);
    const { projectId } = await f.make.connected();
    const report = await s.ok('POST', '/api/v2/reports', { name: 'Note', projectID: projectId, type: 'Html' });
    await addLoopbackMailServer(s, smtp);
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Big send', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: report.id,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
    });
    const ids: string[] = [];
    for (let i = 0; i < RECIPIENTS; i++)
      ids.push(
        (
          await s.ok('POST', '/api/v1/users', {
            firstName: 'R',
            lastName: `${i}`,
            email: `r${i}@example.com`,
            isActive: true,
            organizations: [{ id: f.orgId }],
          })
        ).id,
      );
    await s.ok(
      'PUT',
      `/api/v2/tasks/${task.id}/recipients`,
      ids.map((id) => ({ id, type: 'user' })),
    );
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: 'reports@example.com',
      subject: 'Big send',
      isActive: true,
    });
    await s.ok('POST', `/api/v2/requests/${task.id}/run`);
    await s.stop();

    smtp.refuseNext(50);
    const child = startEngineProcess(s.dataDir, key, {
      BROADSHEET_TEST_MAIL_FAST: '1',
      BROADSHEET_TEST_PROGRESS: '1000000',
    });
    // Killed once the retries are behind it and the sends are in full flow.
    for (let i = 0; smtp.received.length < 80; i++) {
      if (i > 1200) throw new Error(`only ${smtp.received.length} mails arrived before the kill`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await child.kill();
    const atKill = smtp.received.length;
    expect(atKill).toBeLessThan(RECIPIENTS);

    s = await startTestServer({
      dataDir: s.dataDir,
      secretKeys: keys,
      keepDataDir: true,
      mail: { baseDelayMs: 20, maxDelayMs: 200 },
    });
    const repo = s.engine.services.db.getRepository(Outbox);
    for (let i = 0; ; i++) {
      const rows = await repo.find();
      if (rows.length === RECIPIENTS && rows.every((m) => m.status === 'sent')) break;
      if (i > 1200)
        throw new Error(
          `outbox: ${JSON.stringify(rows.reduce((a, m) => ({ ...a, [m.status]: (a[m.status] ?? 0) + 1 }), {} as Record<string, number>))}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
    const rows = await repo.find();
    const byRecipient = new Map<string, Set<string>>();
    const countById = new Map<string, number>();
    for (const m of smtp.received.filter((x) => x.parsed.subject === 'Big send')) {
      const to = m.envelopeTo[0];
      byRecipient.set(to, (byRecipient.get(to) ?? new Set()).add(m.parsed.messageId!));
      countById.set(m.parsed.messageId!, (countById.get(m.parsed.messageId!) ?? 0) + 1);
    }
    expect(byRecipient.size).toBe(RECIPIENTS);
    // One Message-ID per recipient: a resend is the same message, never a new one.
    expect([...byRecipient.values()].every((set) => set.size === 1)).toBe(true);
    const twice = [...countById.entries()].filter(([, n]) => n > 1).map(([id]) => id);
    const uncertain = new Set(rows.filter((m) => m.uncertain).map((m) => m.messageId));
    expect(twice.every((id) => uncertain.has(id))).toBe(true);
    expect(countById.size).toBe(RECIPIENTS);
  }, 180_000);
});
