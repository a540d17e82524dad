// Imports sent as the file itself: streamed to disk as they arrive on both doors (REST and the
// renderer's), bytes over IPC, never parsed as JSON or base64; refused when too large or unsigned,
// and nothing left in the uploads folder either way.
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { createAnalyticsApp } from '../support/analytics-app.js';
import { receiveUpload, UPLOADS_DIR } from '../../engine/ops/receive-upload.js';
import { importThreadWaiting } from '../../engine/analytics/embedded/import-runner.js';

let s: TestServer;
let app: string;
const ROWS = 200_000;

/** A CSV of `rows` sales, sent in chunks of 1,000 lines (a chunked body: no length known up front). */
function csvStream(rows: number): Readable {
  return Readable.from(
    (function* () {
      yield 'Region,Product,Units\n';
      for (let i = 0; i < rows; i += 1000) {
        const lines: string[] = [];
        for (let k = i; k < Math.min(rows, i + 1000); k++) lines.push(`R${k % 7},P${k % 50},${k % 10}`);
        yield lines.join('\n') + '\n';
      }
    })(),
  );
}

async function post(path: string, body: BodyInit | Readable, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.ownerKey}`, 'content-type': 'application/octet-stream', ...headers },
    body: body instanceof Readable ? (Readable.toWeb(body) as ReadableStream) : body,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as { data: any; error: string | null; errorDetails: any } };
}

const uploadsLeft = async () => readdir(join(s.dataDir, UPLOADS_DIR));
const sum = async () => (await s.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Sum(Units)' })).value;

beforeAll(async () => {
  s = await startTestServer({ demo: false });
  app = await createAnalyticsApp(s, 'uploads', 'Uploads');
});
afterAll(() => s.stop());

// Units cycle 0..9: each 10 rows add 45.
const expectedSum = (rows: number) => 45 * Math.floor(rows / 10) + ((rows % 10) * ((rows % 10) - 1)) / 2;

describe(covers('imports sent as the file itself', 'app.analytics.upload', 'app.analytics.evaluate'), () => {
  it('imports a CSV streamed as the request body, with progress, and keeps no copy of the upload', async () => {
    const events: { type: string; payload: Record<string, unknown> }[] = [];
    const off = s.engine.on((e) => events.push(e));
    const res = await post(`/api/app/analytics/${app}/upload?fileName=sales.csv`, csvStream(ROWS));
    off();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.rowCount).toBe(ROWS);
    expect(res.body.data.fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['Region', 'text'],
      ['Product', 'text'],
      ['Units', 'integer'],
    ]);
    expect(await sum()).toBe(expectedSum(ROWS));
    expect(events.filter((e) => e.type === 'analytics.import.progress').at(-1)?.payload.percent).toBe(100);
    expect(await uploadsLeft()).toEqual([]);
  });

  it("starts the import's thread while the file still arrives, once the call's checks have passed", async () => {
    // A call refused before its file is kept (a key that is not one) starts nothing.
    const unsigned = await post(`/api/app/analytics/${app}/upload?fileName=x.csv`, 'a\n1\n', {
      authorization: 'Bearer not-a-key',
    });
    expect(unsigned.status).toBe(401);
    expect(importThreadWaiting()).toBe(false);
    // The first half of a file, then a pause: the thread that will read it is already waiting.
    let goOn = () => {};
    const paused = new Promise<void>((resolve) => (goOn = resolve));
    const body = Readable.from(
      (async function* () {
        for await (const chunk of csvStream(ROWS / 2)) yield chunk;
        await paused;
        for await (const chunk of csvStream(ROWS / 2).drop(1)) yield chunk;
      })(),
    );
    const answer = post(`/api/app/analytics/${app}/upload?fileName=halves.csv`, body);
    await expect.poll(importThreadWaiting).toBe(true);
    goOn();
    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.rowCount).toBe(ROWS);
    expect(await sum()).toBe(2 * expectedSum(ROWS / 2));
    expect(importThreadWaiting()).toBe(false);
  });

  it("takes the same upload through the renderer's door, its other parts in the query", async () => {
    const input = encodeURIComponent(JSON.stringify({ params: { id: app }, query: { fileName: 'small.csv' } }));
    const res = await post(`/api/app/invoke/app.analytics.upload?input=${input}`, csvStream(1234));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.rowCount).toBe(1234);
    expect(await sum()).toBe(expectedSum(1234));
  });

  it('stores dates, decimals and integers of a CSV as the JSON import does, in any of their written forms', async () => {
    const csv = [
      'When,Amount,Units,Note',
      '2025-01-03,1.5,1,a',
      ' 2025-01-04 ,.25, 2 , b ',
      '2025-02-11T10:30:00Z,-2,3,',
      '2025-03-01T00:00:00Z,1e2,4,d',
    ].join('\n');
    const res = await post(`/api/app/analytics/${app}/upload?fileName=forms.csv`, csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.fields.map((f: { type: string }) => f.type)).toEqual(['date', 'decimal', 'integer', 'text']);
    const values = async (field: string) =>
      (await s.ok('POST', `/api/app/analytics/${app}/field-values`, { field })).map((v: { value: unknown }) => v.value);
    expect(await values('When')).toEqual(['2025-01-03', '2025-01-04', '2025-02-11 10:30:00', '2025-03-01']);
    expect(await s.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Sum(Amount)' })).toMatchObject({
      value: 99.75,
    });
    expect(await s.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Sum(Units)' })).toMatchObject({
      value: 10,
    });
    expect(await values('Note')).toEqual(expect.arrayContaining(['a', ' b ', 'd']));
  });

  it('refuses JSON sent to an upload, a file sent to any other operation, and an unknown format', async () => {
    const json = await post(`/api/app/analytics/${app}/upload?fileName=a.csv`, JSON.stringify({ content: 'a,b' }), {
      'content-type': 'application/json',
    });
    expect(json.status).toBe(400);
    expect(json.body.errorDetails).toEqual([
      { field: 'body', message: 'is the file, sent as application/octet-stream' },
    ]);
    const other = await post(`/api/app/analytics/${app}/evaluate`, 'Sum(Units)');
    expect(other.status).toBe(415);
    const format = await post(`/api/app/analytics/${app}/upload?fileName=sales.dat`, 'a,b\n1,2\n');
    expect(format.status).toBe(400);
    expect(format.body.errorDetails).toEqual([{ field: 'query.format', message: 'is required for this file name' }]);
    // Nothing changed: the app still holds the last good import.
    expect(await sum()).toBe(10);
    expect(await uploadsLeft()).toEqual([]);
  });

  it('refuses an unsigned upload with 401 and writes none of it', async () => {
    const res = await fetch(`${s.url}/api/app/analytics/${app}/upload?fileName=sales.csv`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(csvStream(50_000)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(401);
    expect(await uploadsLeft()).toEqual([]);
    expect(await sum()).toBe(10);
  });

  it('stops receiving a file past its limit and removes what arrived', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bs-upload-'));
    try {
      await mkdir(join(dir, UPLOADS_DIR));
      await expect(receiveUpload(join(dir, UPLOADS_DIR), csvStream(100_000), 64 * 1024)).rejects.toMatchObject({
        status: 413,
        details: [{ field: 'body', message: expect.stringMatching(/is larger than/) }],
      });
      await expect(receiveUpload(join(dir, UPLOADS_DIR), Buffer.alloc(64 * 1024 + 1), 64 * 1024)).rejects.toMatchObject(
        { status: 413 },
      );
      expect(await readdir(join(dir, UPLOADS_DIR))).toEqual([]);
      const kept = await receiveUpload(join(dir, UPLOADS_DIR), csvStream(100), 64 * 1024);
      expect(kept.size).toBeGreaterThan(500);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
