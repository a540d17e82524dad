import type { TestServer } from './test-server.js';

/** An HTML report of one KPI (the units sold) in a connected project: a small file a task can mail or store. */
export async function unitsReport(s: TestServer, projectId: string): Promise<string> {
  const reportId = (await s.ok('POST', '/api/v2/reports', { name: 'Units', projectID: projectId, type: 'Html' }))
    .id as string;
  await s.ok('PUT', `/api/app/reports/${reportId}/document`, {
    document: { blocks: [{ id: 'k', type: 'kpi', label: 'Units', expression: 'Sum(Units)' }] },
  });
  return reportId;
}

/** Starts a run of a new task putting the report's HTML file in a storage service at `path`: the request's id. */
export async function startRunToStorage(
  s: TestServer,
  o: { projectId: string; reportId: string },
  serviceId: string,
  path: string,
): Promise<string> {
  const task = await s.ok('POST', '/api/v2/tasks', { name: `To ${path}`, projectID: o.projectId });
  await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: o.reportId,
    format: 'Html',
    emailEmbedment: false,
    emailAttachment: false,
    storageServices: [{ fileStorageServiceID: serviceId, path, order: 0 }],
  });
  return (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id as string;
}
