// The generated fuzz over every operation of the catalogue, through the REST routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fuzz, probes } from './fuzz.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

describe('fuzz through the rest door', () => {
  it('probes every operation of the catalogue', () => {
    expect(probes(s, 'rest').length).toBeGreaterThan(1000);
  });

  it('answers no hostile input with a 5xx, and no 4xx changes the database', async () => {
    expect(await fuzz(s, 'rest')).toEqual([]);
  }, 600_000);
});
