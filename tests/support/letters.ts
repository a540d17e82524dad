import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { ROOT_FOLDER } from './samples.js';
import { until } from './until.js';

/** An API as a test drives it: answers the data, failing on anything but success. */
interface Api {
  ok<T = any>(method: string, path: string, body?: unknown, query?: Record<string, string>): Promise<T>;
}

export const FINISHED = ['completed', 'warning', 'failed', 'aborted'];

/** A run seen mid-way: running with `done` files made (or already ended, for the test to say so). */
export const midRun =
  (done: number, progressOf: (r: any) => number = (r) => r.progressDone) =>
  (r: any) =>
    FINISHED.includes(r.status) || (r.status === 'running' && progressOf(r) >= done);

/**
 * A project whose report makes one letter per customer: an analytics app of `customers` rows
 * (Customer, Sales), a project connected to it, and a report iterating over Customer, in `type`
 * (Word for PDFs, which take long enough to stop a run midway; Html for quick ones).
 */
export async function lettersProject(
  api: Api,
  o: { appId: string; customers: number; type: 'Word' | 'Html' },
): Promise<{ projectId: string; appRowId: string; reportId: string }> {
  const app = await api.ok('POST', '/api/v1/analytics-apps', {
    appId: o.appId,
    name: o.appId,
    folderId: ROOT_FOLDER,
    folderPath: '/',
    allowAnalyticsSenseApp: false,
    allowMashup: false,
    defaultOpen: 'Main',
  });
  const rows = Array.from({ length: o.customers }, (_, i) => `Customer ${String(i).padStart(3, '0')},${i + 1}`);
  await api.ok('POST', `/api/app/analytics/${app.id}/import`, {
    fileName: 'customers.csv',
    content: `Customer,Sales\n${rows.join('\n')}\n`,
  });
  const projectId = (await api.ok('POST', '/api/app/projects', { name: `Letters of ${o.appId}` })).id;
  await api.ok('POST', '/api/app/connections', { projectId, name: 'Data', analyticsAppId: app.id });
  const field = (await api.ok('GET', `/api/app/analytics/${app.id}`)).fields.find(
    (f: { name: string }) => f.name === 'Customer',
  );
  const report = await api.ok('POST', '/api/v2/reports', { name: 'Letter', projectID: projectId, type: o.type });
  await api.ok('PUT', `/api/v2/reports/${report.id}`, {
    name: 'Letter',
    isIteration: true,
    iterationFields: [{ fieldID: field.id, order: 0 }],
  });
  return { projectId, appRowId: app.id, reportId: report.id };
}

/** A task making the report's letters in `format`, attached to no mail. */
export async function letterTask(api: Api, projectId: string, reportId: string, format: 'Pdf' | 'Html') {
  const task = await api.ok('POST', '/api/v2/tasks', { name: 'Letters', projectID: projectId });
  await api.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: reportId,
    format,
    emailEmbedment: false,
    emailAttachment: false,
  });
  return task.id as string;
}

/**
 * A run handed back by a clean stop, after the next start: it completes with every letter, started
 * twice in its log (the handed-back attempt and this one), never "interrupted" nor "aborted".
 */
export async function finishedOnceAfterHandBack(
  api: Api,
  runId: string,
  logFile: string,
  letters: number,
): Promise<void> {
  const done = await until(
    () => api.ok('GET', `/api/v1/ondemand/requests/${runId}`),
    (r) => FINISHED.includes(r.status),
    600_000,
  );
  expect(done.status).toBe('completed');
  expect(done.files).toHaveLength(letters);
  const log = readFileSync(logFile, 'utf8');
  expect(log.match(/Started \(/g)).toHaveLength(2);
  expect(log).not.toMatch(/Interrupted|Ended aborted/);
}

/** `n` active users of the organization, reader0@example.com… in turn: the people a task mails. */
export async function readers(api: Api, orgId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(
      (
        await api.ok('POST', '/api/v1/users', {
          firstName: 'Reader',
          lastName: `${i}`,
          email: `reader${i}@example.com`,
          isActive: true,
          organizations: [{ id: orgId }],
        })
      ).id,
    );
  return ids;
}

/** The task mails each of `people` a message of its own with this subject. */
export async function mailEachOf(api: Api, taskId: string, people: string[], subject: string): Promise<void> {
  await api.ok(
    'PUT',
    `/api/v2/tasks/${taskId}/recipients`,
    people.map((id) => ({ id, type: 'user' })),
  );
  await api.ok('PUT', `/api/v2/tasks/${taskId}/email`, {
    from: 'reports@example.com',
    subject,
    isActive: true,
    oneToAll: false,
  });
}

/** An FTP storage service's fields, its password as given (a stored secret to test the key with). */
export const ftpDrop = (password: string) => ({
  name: 'Drop',
  type: 'FTP',
  host: 'ftp.example.com',
  port: 21,
  username: 'robot',
  password,
  ftpTestDirectoryPath: '/out',
});
