import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const FileOccurrenceResult = lazySchema(() =>
  z.object({
    id: z.string(),
    fileId: z.string(),
    name: z.string(),
    fullName: z.string(),
    extension: z.string(),
    path: z.string(),
    typeMime: z.string(),
    size: z.number(),
    createdDate: z.string().nullable(),
  }),
);

export const HubFileResult = lazySchema(() =>
  z.object({
    id: z.string(),
    reportId: z.string(),
    reportName: z.string(),
    reportAvailableFormats: z.array(z.string()),
    reportDelete: z.boolean(),
    isIteration: z.boolean(),
    occurrenceId: z.string().nullable(),
    name: z.string(),
    fullName: z.string(),
    type: z.enum(['single', 'iteration', 'dedicated']),
    extension: z.string(),
    thumbnailPath: z.null(),
    typeMime: z.string(),
    size: z.number(),
    starred: z.boolean(),
    lastStarDate: z.string().nullable(),
    createdDate: z.string().nullable(),
    fileOccurrences: z.array(FileOccurrenceResult).nullable(),
    hubFolderId: z.string(),
    folder: z.string(),
    iteration: z.array(z.string()),
  }),
);

export const FilesStarResult = lazySchema(() => z.object({ id: z.string(), starred: z.boolean() }));

export const HubResult = lazySchema(() =>
  z.object({
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    fromEmail: z.string(),
    fromName: z.string(),
    customEmailFooter: z.string().nullable(),
    hideSubsciptionLink: z.boolean(),
    id: z.string(),
  }),
);

export const HubFolderResult = lazySchema(() =>
  z.object({
    isRoot: z.boolean(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    parentId: z.string().nullable(),
    name: z.string(),
    parentUrl: z.string(),
    location: z.string(),
    id: z.string(),
  }),
);

export const HubFoldersDeleteResult = lazySchema(() => z.object({ deleted: z.number(), filesMovedToRoot: z.number() }));
