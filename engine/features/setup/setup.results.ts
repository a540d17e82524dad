import { z } from 'zod';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const SetupResult = z.object({ setupComplete: z.boolean() });
