import type { TestServer } from './test-server.js';

/** Creates an embedded analytics app in the hub's root folder; answers its record id. */
export async function createAnalyticsApp(s: TestServer, appId: string, name: string): Promise<string> {
  const app = await s.ok('POST', '/api/v1/analytics-apps', {
    appId,
    name,
    folderId: '00000000-0000-0000-0000-000000000000',
    folderPath: '/',
    allowAnalyticsSenseApp: false,
    allowMashup: false,
    defaultOpen: 'Overview',
  });
  return app.id;
}
