import type { TestServer } from './test-server.js';

/** The id of the hub's root folder, as the hub lists it. */
export async function hubRootId(s: TestServer): Promise<string> {
  const folders = await s.ok('GET', '/api/v1/hub/folders', undefined, { get_all: true });
  return folders.find((f: { isRoot: boolean }) => f.isRoot).id;
}
