// The dry run and the run answer "who is mailed" from one place: for generated tasks (users and
// groups, e-mail on or off per entry, inactive people, someone in two ways, test mode with odd
// addresses) the addresses the dry run marks "by e-mail" are exactly those the run's mail went to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLoopbackMailServer } from '../support/smtp.js';
import type { TestServer } from '../support/test-server.js';
import type { Fixtures } from '../support/samples.js';
import type { TestSmtp } from '../support/smtp.js';
import { waitForRequest } from '../support/requests.js';
import { covers } from '../support/covers.js';
import { startMailing } from '../support/outbox.js';
import { sql } from '../../engine/core/sql.js';

let s: TestServer;
let f: Fixtures;
let smtp: TestSmtp;
let projectId: string;
let reportId: string;
const people: { id: string; email: string }[] = [];
const groups: string[] = [];

/** A small deterministic generator (mulberry32): the same scenarios on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  ({ smtp, s, f, projectId, reportId } = await startMailing());
  await addLoopbackMailServer(s, smtp);
  for (let i = 0; i < 8; i++) {
    const email = `person${i}@example.com`;
    people.push({
      id: (
        await s.ok('POST', '/api/v1/users', {
          firstName: `P${i}`,
          lastName: 'Reader',
          email,
          isActive: i % 4 !== 3,
          organizations: [{ id: f.orgId }],
        })
      ).id,
      email,
    });
  }
  for (let g = 0; g < 3; g++) {
    const id = await f.make.group();
    await s.ok(
      'PUT',
      `/api/v2/groups/${id}/members`,
      people.filter((_, i) => (i + g) % 3 === 0).map((p) => p.id),
    );
    groups.push(id);
  }
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await smtp?.close();
});

describe(covers('the dry run agrees with the run', 'app.tasks.dryRun', 'v2.requests.run'), () => {
  it('marks "by e-mail" exactly the addresses a run mails, in every generated case, test mode included', async () => {
    const next = random(22);
    let reached = 0;
    for (let n = 0; n < 6; n++) {
      const task = (await s.ok('POST', '/api/v2/tasks', { name: `Generated ${n}`, projectID: projectId })).id;
      await s.ok('PUT', `/api/v2/tasks/${task}/reports`, {
        reportID: reportId,
        format: 'Html',
        emailEmbedment: false,
        emailAttachment: true,
      });
      await s.ok('PUT', `/api/v2/tasks/${task}/email`, {
        from: 'reports@example.com',
        subject: `Generated ${n}`,
        isActive: true,
      });
      const entries = [
        ...people
          .filter(() => next() < 0.4)
          .map((p) => ({ id: p.id, type: 'user', sendEmail: next() < 0.7, seeInHub: true })),
        ...groups
          .filter(() => next() < 0.5)
          .map((id) => ({ id, type: 'group', sendEmail: next() < 0.7, seeInHub: true })),
      ];
      if (entries.length) await s.ok('POST', `/api/v1/tasks/${task}/recipients`, entries);
      if (n % 3 === 2) {
        // Test mode: the test list alone, with an address in capitals and one that is no address.
        await s.ok('PUT', `/api/v1/tasks/${task}`, {
          name: `Generated ${n}`,
          isActive: true,
          testMode: true,
          testModeRecipients: 'Tester@Example.com; not an address; qa@example.com',
        });
      }
      const dry = await s.ok('GET', `/api/v1/tasks/${task}/dry-run`);
      const promised = dry.recipients
        .filter((r: { byEmail: boolean }) => r.byEmail)
        .map((r: { email: string }) => r.email.toLowerCase())
        .sort();
      const run = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task}/run`)).id);
      const rows: { to: string }[] = await sql<{ to: string }>(
        s.engine.services.db,
        'SELECT "to" FROM outbox WHERE "requestId" = ?',
        [run.id],
      );
      const mailed = [...new Set(rows.flatMap((r) => JSON.parse(r.to) as string[]).map((a) => a.toLowerCase()))].sort();
      expect({ case: n, mailed }).toEqual({ case: n, mailed: promised });
      reached += mailed.length;
      if (n % 3 === 2) {
        expect(mailed).toEqual(['qa@example.com', 'tester@example.com']);
        expect(dry.recipients.find((r: { name: string }) => r.name === 'not an address')).toMatchObject({
          byEmail: false,
          notes: ['not an e-mail address'],
        });
      }
    }
    // The cases are not empty ones: people were mailed, and some were left out (checked above per case).
    expect(reached).toBeGreaterThan(6);
  }, 180_000);
});
