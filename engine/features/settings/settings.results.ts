import { z } from 'zod';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const SettingsResult = z.object({ jwtAuth: z.boolean(), ntlmAuth: z.boolean() });
