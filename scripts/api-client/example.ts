// What a developer writes from the served API document alone: types generated from
// /api/openapi.json by openapi-typescript (broadsheet-api.d.ts beside this file, made by
// `node scripts/api-client/generate.mjs URL`), calls through openapi-fetch. It signs in with an API
// key, lists users, creates a group, runs a task on the demo report, waits for it, and downloads
// its file. Run: BROADSHEET_URL=http://127.0.0.1:5123 BROADSHEET_KEY=bsk_… npx tsx scripts/api-client/example.ts
import createClient from 'openapi-fetch';
import type { paths } from './broadsheet-api.js';

const url = process.env.BROADSHEET_URL ?? 'http://127.0.0.1:5123';
const key = process.env.BROADSHEET_KEY;
if (!key) throw new Error('Set BROADSHEET_KEY to an API key');
const client = createClient<paths>({ baseUrl: url, headers: { authorization: `Bearer ${key}` } });

/** The envelope's data of an answer, or the envelope's error as an exception. */
function dataOf<T>(answer: { data?: { data?: T; isSuccess?: boolean }; error?: unknown }, what: string): T {
  if (!answer.data?.isSuccess) throw new Error(`${what} failed: ${JSON.stringify(answer.error ?? answer.data)}`);
  return answer.data.data as T;
}

const users = dataOf(await client.GET('/api/v1/users', { params: { query: { page_size: 10 } } }), 'listing users') as {
  email: string;
}[];
console.log(`users: ${users.map((u) => u.email).join(', ')}`);

const group = dataOf(
  await client.POST('/api/v1/groups', {
    body: { name: `Analysts ${Date.now()}`, description: 'Made by the generated client' },
  }),
  'creating a group',
);
console.log(`group: ${group.name} (${group.id}), ${group.users} users`);

const [report] = dataOf(
  await client.GET('/api/v1/reports', { params: { query: { 'name[equals]': 'Regional sales review' } as never } }),
  'finding the demo report',
) as { id: string; projectId: string }[];
const task = dataOf(
  await client.POST('/api/v2/tasks', { body: { name: `Generated client ${Date.now()}`, projectID: report.projectId } }),
  'creating a task',
) as { id: string };
dataOf(
  await client.PUT('/api/v2/tasks/{id}/reports', {
    params: { path: { id: task.id } },
    body: { reportID: report.id, format: 'Pdf', emailEmbedment: false, emailAttachment: true },
  }),
  'adding the report',
);

const queued = dataOf(
  await client.POST('/api/v2/requests/{id}/run', { params: { path: { id: task.id } } }),
  'running the task',
) as { id: string };
let status = 'queued';
for (let i = 0; i < 600 && !['completed', 'warning', 'failed', 'aborted'].includes(status); i++) {
  await new Promise((r) => setTimeout(r, 200));
  status = (
    dataOf(
      await client.GET('/api/v1/ondemand/requests/{id}', { params: { path: { id: queued.id } } }),
      'reading the run',
    ) as { status: string }
  ).status;
}
console.log(`run: ${status}`);

const file = await client.GET('/api/v1/ondemand/requests/{id}/result', {
  params: { path: { id: queued.id } },
  parseAs: 'arrayBuffer',
});
if (!file.response.ok || !file.data) throw new Error(`downloading failed: ${file.response.status}`);
console.log(`file: ${file.response.headers.get('content-type')} ${file.data.byteLength} bytes`);
