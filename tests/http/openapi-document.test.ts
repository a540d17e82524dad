// The served API document, as a developer's tools read it: Redocly's lint finds no error, one name
// per path position, the content type of every download, the statuses each operation can answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let doc: any;
const operations = () => {
  const ops = new Map<string, { path: string; method: string; op: any }>();
  for (const [path, methods] of Object.entries(doc.paths) as [string, Record<string, any>][])
    for (const [method, op] of Object.entries(methods)) ops.set(op.operationId, { path, method, op });
  return ops;
};

beforeAll(async () => {
  s = await startTestServer();
  doc = await (await fetch(`${s.url}/api/openapi.json`)).json();
});
afterAll(() => s.stop());

describe(covers('the API document', 'app.projects.export', 'v2.requests.downloadLog'), () => {
  it("passes Redocly's lint with no error, with servers, a license and tags by area", () => {
    const dir = mkdtempSync(join(tmpdir(), 'bs-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const out = execFileSync(
        join(process.cwd(), 'node_modules', '.bin', 'redocly'),
        ['lint', file, '--format=json'],
        { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      );
      const report = JSON.parse(out.slice(out.indexOf('{')));
      expect(
        report.totals.errors,
        JSON.stringify(report.problems?.filter((p: { severity: string }) => p.severity === 'error').slice(0, 5)),
      ).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['users', 'reports', 'taskReports']),
    );
    expect(operations().get('v1.taskReports.list')!.op.tags).toEqual(['taskReports']);
  });

  it("names each path position once: no two paths differ only by a parameter's name", () => {
    const shapes = new Map<string, string>();
    for (const path of Object.keys(doc.paths)) {
      const shape = path.replace(/\{[^}]+\}/g, '{}');
      expect(shapes.get(shape) ?? path, `${path} and ${shapes.get(shape)}`).toBe(path);
      shapes.set(shape, path);
    }
    expect(operations().get('v1.taskReports.list')!.path).toBe('/api/v1/tasks/{taskId}/reports');
    expect(operations().get('v1.conditions.update')!.path).toBe('/api/v1/conditions/{id}');
  });

  it('declares the content type of every download, and the answers carry one of them', async () => {
    const ops = operations();
    const types = (id: string) => Object.keys(ops.get(id)!.op.responses[200].content);
    expect(types('v1.files.download')).toEqual(expect.arrayContaining(['application/pdf', 'application/zip']));
    expect(types('v1.files.download')).not.toContain('application/json');
    expect(types('v2.requests.downloadLog')).toEqual(['text/plain; charset=utf-8']);
    expect(types('v2.reports.generate')).toEqual(
      expect.arrayContaining([
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'text/csv; charset=utf-8',
      ]),
    );
    expect(types('app.reports.downloadTemplate')).toContain(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const project = await s.ok('POST', '/api/app/projects', { name: 'Documented' });
    const exported = await s.file('GET', `/api/app/projects/${project.id}/export`);
    expect(types('app.projects.export')).toContain(exported.contentType.split(';')[0]);
    expect(ops.get('v1.users.list')!.op.responses[200].content['application/json']).toBeDefined();
  });

  it('declares the statuses each operation can answer: 413 where it takes a body, 429 everywhere, 409 only for writes', () => {
    const ops = operations();
    const statuses = (id: string) => Object.keys(ops.get(id)!.op.responses);
    expect(statuses('v1.groups.create')).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '409', '413', '429']),
    );
    expect(statuses('v1.users.list')).not.toContain('413');
    expect(statuses('v1.users.list')).not.toContain('409');
    expect(statuses('app.setup.status')).not.toContain('401');
    for (const { op } of ops.values()) expect(Object.keys(op.responses)).toContain('429');
    expect(ops.get('v1.groups.create')!.op.responses[429].headers['Retry-After']).toBeDefined();
  });
});

describe(covers('storage types in the API document', 'app.storageServices.create'), () => {
  it('names every kind of storage, cloud drives and WebDAV included, where a storage service is created', () => {
    const { op } = operations().get('app.storageServices.create')!;
    const body = op.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    expect(schema.properties.type.enum).toEqual(
      expect.arrayContaining(['Folder', 'FTP', 'SFTP', 'WebDAV', 'OneDrive', 'SharePoint', 'GoogleDrive', 'Dropbox']),
    );
  });
});
