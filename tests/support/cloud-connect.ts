import { expect } from 'vitest';
import type { TestServer } from './test-server.js';

/**
 * Connects a cloud drive storage service as a person would: the provider's sign-in page it names
 * (the fake consents at once), followed by the browser back to Broadsheet. Answers the sign-in page
 * and where the browser landed.
 */
export async function connectThroughBrowser(s: TestServer, id: string) {
  const { authorizationUrl } = await s.ok('POST', `/api/app/storage-services/${id}/connect`);
  const atProvider = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(atProvider.status, await atProvider.clone().text()).toBe(302);
  const back = await fetch(atProvider.headers.get('location')!, { redirect: 'manual' });
  expect(back.status).toBe(302);
  return { authorizationUrl: authorizationUrl as string, landed: back.headers.get('location')! };
}
