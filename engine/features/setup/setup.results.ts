import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const SetupResult = lazySchema(() => z.object({ setupComplete: z.boolean() }));
