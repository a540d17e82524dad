// Task reports put their files in folders and on FTP servers: read back byte for byte from the
// folder and from a real FTP server (ftp-srv) on loopback; paths that would leave their root are
// refused naming the field; a server that cannot be used is named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures } from '../support/samples.js';
import { ftpService, startFtp, type TestFtp } from '../support/ftp.js';
import { startSftp, type TestSftp } from '../support/sftp.js';
import { closedPort } from '../support/smtp.js';
import { waitForRequest } from '../support/requests.js';
import { startRunToStorage, unitsReport } from '../support/units-report.js';
import { covers } from '../support/covers.js';
import { sql } from '../../engine/core/sql.js';

let s: TestServer;
let ftp: TestFtp;
let sftp: TestSftp;
let folder: string;
let projectId: string;
let reportId: string;

beforeAll(async () => {
  ftp = await startFtp();
  sftp = await startSftp();
  folder = await mkdtemp(join(tmpdir(), 'bs-folder-'));
  // A destination that fails for a passing reason is tried again: quickly here.
  s = await startTestServer({ storageRetry: { tries: 2, baseMs: 50, maxMs: 50 } });
  projectId = (await (await fixtures(s)).make.connected()).projectId;
  reportId = await unitsReport(s, projectId);
});
afterAll(async () => {
  await s.stop();
  await ftp.close();
  await sftp.close();
  await rm(folder, { recursive: true, force: true });
});

async function runTo(serviceId: string, path: string) {
  const done = await waitForRequest(s, await startRunToStorage(s, { projectId, reportId }, serviceId, path));
  const made = await readFile(join(s.dataDir, 'files', 'requests', done.id, done.files[0].name));
  return { done, made };
}

describe(
  covers(
    'storage services',
    'v1.storageServices.list',
    'v2.storageServices.update',
    'v1.storageServices.delete',
    'v2.storageServices.delete',
  ),
  () => {
    it("puts a run's file in a folder under its root, byte for byte", async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Shared drive',
        type: 'Folder',
        rootPath: folder,
      });
      expect((await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`)).ok).toBe(true);
      const { done, made } = await runTo(svc.id, 'monthly/2026');
      expect(done.status).toBe('completed');
      const copy = await readFile(join(folder, 'monthly', '2026', done.files[0].name));
      expect(Buffer.compare(copy, made)).toBe(0);
    });

    it("puts a run's file on an FTP server under its base directory, and names a wrong password or an unreachable host", async () => {
      const svc = await s.ok(
        'POST',
        '/api/v1/storage-services',
        ftpService(ftp, { ftpTestDirectoryPath: '/outgoing' }),
      );
      expect(JSON.stringify(svc)).not.toContain('ftp-secret');
      expect((await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`)).message).toMatch(
        /^Signed in to 127\.0\.0\.1:\d+ and opened \/outgoing/,
      );
      const { done, made } = await runTo(svc.id, 'weekly');
      expect(done.status).toBe('completed');
      const copy = await readFile(join(ftp.root, 'outgoing', 'weekly', done.files[0].name));
      expect(Buffer.compare(copy, made)).toBe(0);

      await s.ok(
        'PUT',
        `/api/v2/storage-services/${svc.id}`,
        ftpService(ftp, { password: 'wrong', ftpTestDirectoryPath: '/outgoing' }),
      );
      const wrong = await s.call('POST', `/api/v1/storage-services/${svc.id}/test`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.errorDetails?.[0].field).toBe('username');
      const dead = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Nobody home',
        type: 'FTP',
        host: '127.0.0.1',
        port: await closedPort(),
      });
      const res = await s.call('POST', `/api/v1/storage-services/${dead.id}/test`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^127\.0\.0\.1:\d+ could not be used/);
      // A run to it tries again (a server not answering may come back), then ends warning, the
      // destination and the cause named in the log.
      const { done: failed } = await runTo(dead.id, 'x');
      expect(failed.status).toBe('warning');
      const text = (await s.ok('GET', `/api/v1/requests/${failed.id}/log`)).text;
      expect(text).toMatch(
        /Files not put in “Nobody home”: the server refused the connection \(is it running\?\) \(ECONNREFUSED\); trying again in 1 s \(try 1 of 2\)/,
      );
      expect(text).toMatch(/Files not put in “Nobody home”: the server refused the connection .* \(tried 2 times\)/);
    });

    it("puts a run's file on an SFTP server (OpenSSH) signing in with a key, and names a refused sign-in", async () => {
      const base = join(sftp.root, 'drop');
      const svc = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Partner SFTP',
        type: 'SFTP',
        host: '127.0.0.1',
        sftpPort: sftp.port,
        username: sftp.user,
        privateKey: sftp.privateKey,
        ftpTestDirectoryPath: base,
      });
      expect(svc).toMatchObject({ type: 'SFTP', port: sftp.port, hasPrivateKey: true });
      expect(JSON.stringify(svc)).not.toContain('PRIVATE KEY');
      // The first connection pins the server's host key: the one OpenSSH itself prints.
      expect((await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`)).message).toBe(
        `Signed in to 127.0.0.1:${sftp.port} (host key ${sftp.hostKeyFingerprint}) and opened ${base}`,
      );
      const { done, made } = await runTo(svc.id, 'daily');
      expect(done.status).toBe('completed');
      expect(Buffer.compare(await readFile(join(base, 'daily', done.files[0].name)), made)).toBe(0);
      // Another key offered by the same address is refused before anything is sent, naming the host.
      await sql(s.engine.services.db, 'UPDATE storage_services SET "hostKey" = ? WHERE id = ?', [
        'SHA256:somebody-else',
        svc.id,
      ]);
      const changed = await s.call('POST', `/api/v1/storage-services/${svc.id}/test`);
      expect(changed.status).toBe(400);
      expect(changed.body.errorDetails?.[0].field).toBe('host');
      expect(changed.body.error).toContain(
        `the host key of 127.0.0.1 changed (pinned SHA256:somebody-else, offered ${sftp.hostKeyFingerprint})`,
      );
      const refused = await runTo(svc.id, 'refused');
      expect(refused.done.status).toBe('warning');
      expect(existsSync(join(base, 'refused'))).toBe(false);
      // Clearing the pinned key (the server was reinstalled) pins the one offered next.
      await s.ok('PUT', `/api/v2/storage-services/${svc.id}`, {
        name: 'Partner SFTP',
        type: 'SFTP',
        host: '127.0.0.1',
        sftpPort: sftp.port,
        username: sftp.user,
        ftpTestDirectoryPath: base,
        clearHostKey: true,
      });
      expect((await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`)).message).toContain(
        sftp.hostKeyFingerprint,
      );
      const stranger = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Wrong key',
        type: 'SFTP',
        host: '127.0.0.1',
        sftpPort: sftp.port,
        username: sftp.user,
        password: 'guess',
        ftpTestDirectoryPath: base,
      });
      const res = await s.call('POST', `/api/v1/storage-services/${stranger.id}/test`);
      expect(res.status).toBe(400);
      expect(res.body.errorDetails?.[0].field).toBe('username');
    });

    it('refuses paths that would leave the root, and a folder root that is not absolute, naming the field; nothing is stored', async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', { name: 'Root', type: 'Folder', rootPath: folder });
      const task = await s.ok('POST', '/api/v2/tasks', { name: 'Escape', projectID: projectId });
      for (const path of ['../outside', 'a/../../b', 'C:/Windows']) {
        const res = await s.call('PUT', `/api/v2/tasks/${task.id}/reports`, {
          body: {
            reportID: reportId,
            format: 'Html',
            emailEmbedment: false,
            emailAttachment: false,
            storageServices: [{ fileStorageServiceID: svc.id, path, order: 0 }],
          },
        });
        expect(res.status, path).toBe(400);
        expect(res.body.errorDetails).toEqual([
          { field: 'body.storageServices.0.path', message: 'must stay inside the storage service (no "..", no drive)' },
        ]);
      }
      expect(await s.ok('GET', `/api/v1/tasks/${task.id}/reports`)).toEqual([]);
      const relative = await s.call('POST', '/api/v1/storage-services', {
        body: { name: 'Relative', type: 'Folder', rootPath: 'reports/out' },
      });
      expect(relative.body.errorDetails).toEqual([
        { field: 'body.rootPath', message: 'must be an absolute path, such as /srv/reports or D:\\Reports' },
      ]);
      // A folder that is not there is said at once, not at the first delivery.
      const missing = await s.call('POST', '/api/v1/storage-services', {
        body: { name: 'Missing', type: 'Folder', rootPath: join(folder, 'not-made-yet') },
      });
      expect(missing.status).toBe(400);
      expect(missing.body.errorDetails).toEqual([
        { field: 'body.rootPath', message: 'does not exist or is not a folder on this computer' },
      ]);
      expect(existsSync(join(folder, '..', 'outside'))).toBe(false);
    });

    it('lists, updates and deletes storage services, never answering a password', async () => {
      const listed = await s.ok('GET', '/api/v1/storage-services', undefined, { get_all: true, sort_by: 'Type' });
      expect(listed.length).toBeGreaterThanOrEqual(3);
      expect(JSON.stringify(listed)).not.toContain('ftp-secret');
      const ids = listed.map((x: { id: string }) => x.id);
      await s.ok('DELETE', '/api/v2/storage-services', [ids[0]]);
      await s.ok('DELETE', '/api/v1/storage-services', [ids[1]]);
      expect((await s.ok('GET', '/api/v1/storage-services', undefined, { get_all: true })).length).toBe(
        listed.length - 2,
      );
      expect((await readdir(folder)).length).toBeGreaterThan(0);
    });
  },
);
