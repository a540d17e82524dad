import type { TestServer } from './test-server.js';

/**
 * The demo's iterating report ("Regional sales review") and a variable naming each iteration's
 * region (vRegionName), for deliveries that put each region's file in its own folder.
 */
export async function demoRegionalReport(s: TestServer) {
  const [report] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  const connections = await s.ok('GET', '/api/v1/connections', undefined, { projectId: report.projectId });
  const appRowId = connections.find((c: { id: string }) => c.id === report.connectionId)?.analyticsAppId;
  await s.ok('POST', `/api/app/analytics/${appRowId}/variables`, { name: 'vRegionName', definition: 'Min(Region)' });
  return report as { id: string; projectId: string; connectionId: string };
}
