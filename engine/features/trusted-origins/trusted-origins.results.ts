import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const TrustedOriginResult = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    address: z.string(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);
