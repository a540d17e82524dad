import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const FilterResult = lazySchema(() =>
  z.object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    values: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(['field', 'variable', 'bookmark']),
        targetId: z.string(),
        targetName: z.string().nullable(),
        order: z.number(),
        fieldValues: z.array(z.string()).nullable(),
        variableValue: z.string().nullable(),
      }),
    ),
  }),
);

export const FiltersListResult = lazySchema(() => z.array(FilterResult));

export const FilterBResult = lazySchema(() => withSetBIdsSchema(FilterResult, 'projectId'));
