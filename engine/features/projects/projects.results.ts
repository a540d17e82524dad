import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const ProjectResult = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    organizationId: z.string(),
    isActive: z.boolean(),
    permissionsMode: z.boolean(),
    createdBy: z.string().nullable(),
    modifiedBy: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);

export const ProjectsDeleteResult = lazySchema(() => z.object({ deleted: z.number(), deleteFiles: z.boolean() }));

/** Operation ids the caller may call, on the project and on each of its objects by id. */
export const ProjectAccessResult = lazySchema(() => {
  const byId = z.record(z.string(), z.array(z.string()));
  return z.object({ project: z.array(z.string()), reports: byId, filters: byId, conditions: byId, tasks: byId });
});
