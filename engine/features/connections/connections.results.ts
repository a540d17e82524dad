import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const ConnectionResult = lazySchema(() =>
  z.object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    analyticsAppId: z.string(),
    appId: z.string().nullable(),
    appName: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);

export const ConnectionsListResult = lazySchema(() => z.array(ConnectionResult));
