import type { TestServer } from './test-server.js';
import type { Fixtures, Sample } from './samples.js';

// Valid calls of every condition and request operation of issue 8 (both sets), for the conformance suite.
let n = 0;
const uniq = (p: string) => `${p} ${++n}-${Math.random().toString(36).slice(2, 7)}`;

export function conditionSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const ok = (method: string, path: string, body?: unknown) => server().ok(method, path, body);
  // One connected project whose app has a variable serves every sample.
  let shared: Promise<{ projectId: string; appId: string; connectionId: string; variable: string }> | null = null;
  const place = (f: Fixtures) =>
    (shared ??= (async () => {
      const c = await f.make.connected();
      const variable = `vUnits${Math.random().toString(36).slice(2, 7)}`;
      await ok('POST', `/api/app/analytics/${c.appId}/variables`, { name: variable, definition: 'Sum(Units)' });
      return { ...c, variable };
    })());
  const value = (variable: string) => ({ type: 'Variable', variable, operator: '>', comparisonValue: '1', order: 0 });
  const condition = async (f: Fixtures) =>
    (
      await ok('POST', '/api/v1/conditions', {
        projectId: (await place(f)).projectId,
        name: uniq('Big month'),
        isActive: true,
      })
    ).id as string;
  const withRule = async (f: Fixtures) => {
    const p = await place(f);
    const conditionId = await condition(f);
    const rule = await ok('POST', `/api/v1/conditions/${conditionId}/rules`, {
      conditionId,
      name: uniq('Units'),
      connectionId: p.connectionId,
      conditionRuleValues: [value(p.variable)],
    });
    return { conditionId, ruleId: rule.id as string };
  };
  let listed: Promise<string> | null = null;
  let listedCondition: Promise<string> | null = null;
  return {
    'v1.conditions.create': async (f) => ({
      body: {
        projectId: (await place(f)).projectId,
        name: uniq('Big month'),
        description: 'Only when sales are up',
        isActive: true,
      },
    }),
    // A list is sampled several times (each sort, each page): one condition made once.
    'v1.conditions.list': async (f) => {
      await (listedCondition ??= condition(f));
      return {};
    },
    'v1.conditions.delete': async (f) => ({ body: [await condition(f)] }),
    'v1.conditions.update': async (f) => ({
      params: { id: await condition(f) },
      body: { projectId: (await place(f)).projectId, name: uniq('Renamed'), isActive: false },
    }),
    'v1.conditionRules.list': async (f) => ({
      params: { conditionId: await (listed ??= withRule(f).then((r) => r.conditionId)) },
    }),
    'v1.conditionRules.batchUpsert': async (f) => {
      const p = await place(f);
      const { conditionId, ruleId } = await withRule(f);
      return {
        params: { conditionId },
        body: {
          items: [
            { id: ruleId, name: uniq('Units'), connectionId: p.connectionId, conditionRuleValues: [value(p.variable)] },
            { name: uniq('More'), connectionId: p.connectionId, conditionRuleValues: [] },
          ],
        },
      };
    },
    'v1.conditionRules.upsert': async (f) => {
      const p = await place(f);
      const conditionId = await condition(f);
      return {
        params: { conditionId },
        body: {
          conditionId,
          name: uniq('Units'),
          connectionId: p.connectionId,
          conditionRuleValues: [value(p.variable)],
        },
      };
    },
    'v1.conditionRules.get': async (f) => ({ params: await withRule(f) }),
    'v1.conditionRules.update': async (f) => {
      const p = await place(f);
      const { conditionId, ruleId } = await withRule(f);
      return {
        params: { conditionRuleId: ruleId },
        body: {
          conditionId,
          name: uniq('Units'),
          connectionId: p.connectionId,
          conditionRuleValues: [{ ...value(p.variable), operator: '<=' }],
        },
      };
    },
    'v1.conditionRules.delete': async (f) => {
      const { conditionId, ruleId } = await withRule(f);
      return { params: { conditionId }, body: [ruleId] };
    },
    'v2.conditions.create': async (f) => ({ body: { name: uniq('Big month'), projectID: (await place(f)).projectId } }),
    'v2.conditions.duplicate': async (f) => ({
      params: { id: (await withRule(f)).conditionId },
      body: { projectID: (await place(f)).projectId, organizationID: f.orgId },
    }),
    'v2.conditions.update': async (f) => ({
      params: { id: await condition(f) },
      body: { name: uniq('Renamed'), description: null },
    }),
    'v2.conditionRules.upsert': async (f) => {
      const p = await place(f);
      return {
        params: { id: await condition(f) },
        body: { name: uniq('Units'), analyticsAppID: p.appId, values: [value(p.variable)] },
      };
    },
    'v2.conditionRules.delete': async (f) => {
      const { conditionId, ruleId } = await withRule(f);
      return { params: { id: conditionId }, body: [ruleId] };
    },
  };
}

/** A valid call of every request operation of issue 8, for the conformance suite. */
export function requestSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const ok = (method: string, path: string, body?: unknown) => server().ok(method, path, body);
  let shared: Promise<{ projectId: string; reportId: string }> | null = null;
  const place = (f: Fixtures) =>
    (shared ??= (async () => {
      const { projectId } = await f.make.connected();
      const reportId = (
        await ok('POST', '/api/v2/reports', { name: uniq('On demand'), projectID: projectId, type: 'Html' })
      ).id as string;
      return { projectId, reportId };
    })());
  const finished = async (f: Fixtures) => {
    const { reportId } = await place(f);
    const queued = await ok('POST', '/api/v1/ondemand/requests', { config: { reportId, outputFormat: 'Html' } });
    for (let i = 0; i < 400; i++) {
      const r = await ok('GET', `/api/v1/ondemand/requests/${queued.id}`);
      if (['completed', 'warning', 'failed', 'aborted'].includes(r.status)) return r.id as string;
      await new Promise((res) => setTimeout(res, 25));
    }
    throw new Error('the sample request did not finish');
  };
  let listed: Promise<string> | null = null;
  const task = async (f: Fixtures) =>
    (await ok('POST', '/api/v2/tasks', { name: uniq('Run me'), projectID: (await place(f)).projectId })).id as string;
  return {
    'v1.requests.listScheduledStatuses': async (f) => {
      await (listed ??= task(f).then(async (t) => {
        await ok('POST', `/api/v1/tasks/${t}/triggers/schedules`, {
          name: 'Daily',
          frequency: 'Daily',
          atHour: 6,
          atMinut: 0,
          timeZone: 'UTC',
          startDate: new Date().toISOString(),
          endDate: new Date(Date.now() + 86400_000 * 30).toISOString(),
        });
        return t;
      }));
      return {};
    },
    'v1.requests.listOnDemandStatuses': async () => ({}),
    'v1.onDemand.generate': async (f) => ({
      body: {
        config: { reportId: (await place(f)).reportId, outputFormat: 'Html' },
        selections: [],
        ignoreExistingFilters: false,
        overrideReportApp: false,
      },
    }),
    'v2.requests.run': async (f) => ({ params: { id: await task(f) } }),
    'v2.requests.stop': async (f) => ({ params: { id: await finished(f) } }),
    'v2.requests.downloadLog': async (f) => ({ params: { id: await finished(f) } }),
    'v2.requests.delete': async (f) => ({ params: { id: await finished(f) } }),
    'v2.requests.downloadFile': async (f) => ({ params: { id: await finished(f) }, query: { version: '1' } }),
  };
}

/** Valid calls of the mail server operations (the test mail itself is exercised against a real server in tests/mail). */
/** Valid calls of set B's user lifecycle (the flows themselves are in tests/users). */
export function userLifecycleSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  // Invitations travel by mail: a server on loopback's discard port, so nothing leaves the machine.
  const mailServer = () =>
    server().ok('POST', '/api/v1/mail-servers', {
      name: uniq('Invitations'),
      fromName: 'Broadsheet',
      fromAddress: 'admin@example.com',
      hostName: '127.0.0.1',
      smtpPort: 9,
      ssl: false,
    });
  return {
    'v2.recipients.create': async (f) => ({
      body: {
        firstName: 'Rae',
        lastName: uniq('Recipient'),
        email: `${uniq('rae')
          .toLowerCase()
          .replace(/[^a-z0-9]/g, '')}@example.com`,
        organizations: [f.orgId],
      },
    }),
    'v2.users.update': async (f) => ({
      params: { id: await f.make.user() },
      body: { type: 'userStatus', value: 'Inactive' },
    }),
    'v2.users.transfer': async (f) => ({
      params: { id: await f.make.user() },
      body: { newUserID: await f.make.user(), transferContent: true, transferPermissions: true },
    }),
    'v2.users.invite': async (f) => {
      await mailServer();
      return {
        body: {
          emails: [
            `${uniq('invited')
              .toLowerCase()
              .replace(/[^a-z0-9]/g, '')}@example.com`,
          ],
          organizations: [{ organizationID: f.orgId, roleName: null }],
        },
      };
    },
  };
}

export function mailServerSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const body = () => ({
    name: uniq('Mail'),
    fromName: 'Broadsheet',
    fromAddress: 'reports@example.com',
    hostName: '127.0.0.1',
    smtpPort: 9,
    ssl: false,
    userName: 'robot',
    password: 'secret',
  });
  return {
    'v1.mailServers.create': async () => ({ body: body() }),
    'v1.mailServers.update': async () => ({
      params: { id: (await server().ok('POST', '/api/v1/mail-servers', body())).id },
      body: { ...body(), password: null },
    }),
  };
}

/** Valid calls of the storage service operations (deliveries are exercised against real servers in tests/storage). */
export function storageSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const body = () => ({
    name: uniq('Drop'),
    type: 'FTP',
    host: 'ftp.example.com',
    port: 21,
    username: 'robot',
    password: 'secret',
    ftpTestDirectoryPath: '/out',
  });
  const make = async () => (await server().ok('POST', '/api/v1/storage-services', body())).id as string;
  let listed: Promise<string> | null = null;
  return {
    'v1.storageServices.list': async () => {
      await (listed ??= make());
      return {};
    },
    'v1.storageServices.delete': async () => ({ body: [await make()] }),
    'v2.storageServices.update': async () => ({ params: { id: await make() }, body: { ...body(), password: null } }),
    'v2.storageServices.delete': async () => ({ body: [await make()] }),
    'app.settings.setCloudApps': async () => ({
      body: {
        microsoft: {
          clientId: '2f1d7c8e-5a43-4c3e-9d0a-8b7e6f5a4c3b',
          tenant: 'contoso.onmicrosoft.com',
          clientSecret: 's',
        },
      },
    }),
  };
}

/** Valid calls of the hub's operations: one Html report published to the hub's root by a task run, made once. */
export function hubSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const ok = (method: string, path: string, body?: unknown, query?: Record<string, string | number | boolean>) =>
    server().ok(method, path, body, query);
  const root = async () =>
    (await ok('GET', '/api/v1/hub/folders', undefined, { exceptRoot: false, get_all: true })).find(
      (x: { isRoot: boolean }) => x.isRoot,
    ).id as string;
  const publish = async (f: Fixtures) => {
    const { projectId } = await f.make.connected();
    const reportId = (
      await ok('POST', '/api/v2/reports', { name: uniq('Published'), projectID: projectId, type: 'Html' })
    ).id as string;
    const task = await ok('POST', '/api/v2/tasks', { name: uniq('Publish'), projectID: projectId });
    await ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailAttachment: false,
      emailEmbedment: false,
      hub: { folderID: await root(), hubMaxFileOccurrences: 3 },
    });
    const run = await ok('POST', `/api/v2/requests/${task.id}/run`);
    for (let i = 0; i < 400; i++) {
      const r = await ok('GET', `/api/v1/ondemand/requests/${run.id}`);
      if (r.status === 'completed')
        return {
          reportId,
          fileId:
            ((await ok('GET', '/api/v1/files', undefined, { 'report.name': r.title ?? '', get_all: true }))[0]
              ?.id as string) ?? ((await ok('GET', '/api/v1/files'))[0].id as string),
        };
      if (['warning', 'failed', 'aborted'].includes(r.status)) throw new Error(`the publishing run ended ${r.status}`);
      await new Promise((res) => setTimeout(res, 25));
    }
    throw new Error('the publishing run did not finish');
  };
  let published: Promise<{ reportId: string; fileId: string }> | null = null;
  const file = (f: Fixtures) => (published ??= publish(f));
  const folder = async () =>
    (await ok('POST', '/api/v1/hub/folders', { name: uniq('Folder'), parentUrl: '/', location: '/x' })).id as string;
  return {
    'v1.files.list': async (f) => (await file(f), {}),
    'v1.files.listOccurrences': async (f) => ({ params: { id: (await file(f)).fileId } }),
    'v1.files.listIterationFiles': async (f) => ({ params: { id: (await file(f)).reportId, extension: 'html' } }),
    'v1.files.listFavorites': async (f) => {
      await ok('PUT', `/api/v1/files/${(await file(f)).fileId}/star`);
      return {};
    },
    'v1.files.listRecent': async (f) => (await file(f), {}),
    'v1.files.download': async (f) => ({ query: { id: (await file(f)).fileId, isIteration: 'false' } }),
    'v1.files.delete': async (f) => ({ body: [{ id: (await publish(f)).fileId }] }),
    'v1.hub.updateConfiguration': async () => ({
      params: { id: (await ok('GET', '/api/v1/hub/configuration')).id },
      body: { fromEmail: 'hub@example.com', fromName: 'Hub', customEmailFooter: null, hideSubsciptionLink: false },
    }),
    'v1.hubFolders.create': async () => ({ body: { name: uniq('Folder'), parentUrl: '/', location: '/x' } }),
    'v1.hubFolders.list': async () => ({}),
    'v1.hubFolders.update': async () => ({
      params: { HubFolderId: await folder() },
      body: { name: uniq('Renamed'), parentUrl: '/', location: '/x' },
    }),
    'v1.hubFolders.delete': async () => ({ body: [await folder()] }),
  };
}

/** Subscriptions, made by the administrator (who reaches every project) to a connected report on a far schedule. */
export function subscriptionSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const ok = (method: string, path: string, body?: unknown, query?: Record<string, string | number | boolean>) =>
    server().ok(method, path, body, query);
  const body = async (f: Fixtures) => {
    const { projectId, connectionId } = await f.make.connected();
    const reportId = (
      await ok('POST', '/api/v2/reports', {
        name: uniq('Subscribed'),
        projectID: projectId,
        type: 'Html',
        connectionID: connectionId,
      })
    ).id as string;
    return {
      name: uniq('Subscription'),
      triggerType: 'Schedule',
      type: 'Report',
      reports: [{ id: reportId, formats: ['Html'], emailAttachment: true }],
      schedule: {
        frequency: 'Daily',
        atHour: 7,
        atMinut: 0,
        timeZone: 'UTC',
        startDate: '2030-01-01T00:00:00Z',
        endDate: '2031-01-01T00:00:00Z',
      },
      email: { subject: 'Every morning', message: 'Here it is.' },
    };
  };
  const made = async (f: Fixtures) => (await ok('POST', '/api/v1/subscriptions', await body(f))).id as string;
  // The lists are asked many times: one subscription, made once, keeps their totals steady.
  let listed: Promise<string> | null = null;
  const one = (f: Fixtures) => (listed ??= made(f));
  return {
    'v1.subscriptions.create': async (f) => ({ body: await body(f) }),
    'v1.subscriptions.listOwn': async (f) => (await one(f), {}),
    'v1.subscriptions.listBySite': async (f) => (await one(f), {}),
    'v1.subscriptions.update': async (f) => ({ params: { SubcriptionId: await made(f) }, body: await body(f) }),
    'v1.subscriptions.delete': async (f) => ({ body: [await made(f)] }),
  };
}

/** Member permissions on each kind of object, given to the owner on a fresh object of a fresh project. */
export function memberSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const ok = (method: string, path: string, body?: unknown) => server().ok(method, path, body);
  let flags: Promise<string[]> | null = null;
  const all = () => (flags ??= import('../../engine/model/members.entity.js').then((m) => [...m.PERMISSION_FLAGS]));
  const set = async (on: string[] = []) => Object.fromEntries((await all()).map((k) => [k, on.includes(k)]));
  const owner = () => server().engine.firstStart.ownerId;
  const objects = {
    projects: async (f: Fixtures) => f.make.project(),
    reports: async (f: Fixtures) => f.make.report(),
    filters: async (f: Fixtures) => f.make.filter(),
    conditions: async (f: Fixtures) =>
      (
        await ok('POST', '/api/v1/conditions', {
          projectId: (await f.make.connected()).projectId,
          name: uniq('Guarded'),
          isActive: true,
        })
      ).id as string,
    tasks: async (f: Fixtures) =>
      (await ok('POST', '/api/v2/tasks', { name: uniq('Guarded'), projectID: (await f.make.connected()).projectId }))
        .id as string,
  };
  type Kind = keyof typeof objects;
  const withMember = async (kind: Kind, f: Fixtures) => {
    const id = await objects[kind](f);
    const [row] = await ok('PUT', `/api/v2/${kind}/${id}/permissions`, {
      members: [{ id: owner(), type: 'user' }],
      permissions: await set(['viewProject']),
    });
    return { id, memberPermissionId: row.id as string };
  };
  const out: Record<string, (f: Fixtures) => Promise<Sample>> = {
    'v2.projects.updatePermissionsMode': async (f) => ({
      params: { id: await f.make.project() },
      query: { value: 'false' },
    }),
    'v2.projects.deleteMemberPermission': async (f) => ({ params: await withMember('projects', f) }),
    'v2.reports.getMemberPermission': async (f) => ({ params: await withMember('reports', f) }),
    'v2.conditions.getMemberPermission': async (f) => ({ params: await withMember('conditions', f) }),
  };
  for (const kind of Object.keys(objects) as Kind[]) {
    out[`v2.${kind}.setPermissions`] = async (f) => ({
      params: { id: await objects[kind](f) },
      body: { members: [{ id: owner(), type: 'user' }], permissions: await set(['viewProject']) },
    });
    out[`v2.${kind}.setMemberPermission`] = async (f) => ({
      params: await withMember(kind, f),
      body: { viewProject: true },
    });
    out[`v2.${kind}.deleteMemberPermissions`] = async (f) => {
      const { id, memberPermissionId } = await withMember(kind, f);
      return { params: { id }, body: [memberPermissionId] };
    };
  }
  return out;
}
