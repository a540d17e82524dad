import { SAMPLES, issue3Samples, type Fixtures, type Sample } from './samples.js';
import { taskSamples } from './task-samples.js';
import {
  conditionSamples,
  hubSamples,
  mailServerSamples,
  requestSamples,
  storageSamples,
  subscriptionSamples,
  memberSamples,
  userLifecycleSamples,
} from './distribution-samples.js';
import type { TestServer } from './test-server.js';
import type { AnyOp } from '../../engine/ops/op.js';

/** Issue 2's administration operations and issue 3's interface operations, each with a valid call. */
export function allSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  return {
    ...SAMPLES,
    ...issue3Samples(server),
    ...taskSamples(server),
    ...conditionSamples(server),
    ...requestSamples(server),
    ...mailServerSamples(server),
    ...storageSamples(server),
    ...hubSamples(server),
    ...subscriptionSamples(server),
    ...memberSamples(server),
    ...userLifecycleSamples(server),
  };
}

/** An operation's path with its parameters filled in. */
export function pathOf(op: AnyOp, params: Record<string, string> = {}) {
  return op.http.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k] ?? ''));
}
