import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const MemberPermissionResult = lazySchema(() =>
  z.object({
    id: z.string(),
    objectType: z.enum(['filter', 'project', 'report', 'condition', 'task']),
    objectId: z.string(),
    memberId: z.string(),
    memberType: z.enum(['user', 'group']),
    memberName: z.string().nullable(),
    /** Listing only: whether the caller may change or remove this set (it holds no flag beyond theirs). */
    mayChange: z.boolean().optional(),
    /** Listing only: the flags the caller holds here, the only ones they may give. */
    grantable: z.array(z.string()).optional(),
    permissions: z.object({
      viewProject: z.boolean(),
      viewTask: z.boolean(),
      createTask: z.boolean(),
      editTask: z.boolean(),
      deleteTask: z.boolean(),
      runTask: z.boolean(),
      viewCondition: z.boolean(),
      createCondition: z.boolean(),
      editCondition: z.boolean(),
      deleteCondition: z.boolean(),
      viewReport: z.boolean(),
      createReport: z.boolean(),
      useReport: z.boolean(),
      editReport: z.boolean(),
      subscribeReport: z.boolean(),
      runReport: z.boolean(),
      deleteReport: z.boolean(),
      setPermissionsReport: z.boolean(),
      duplicateReport: z.boolean(),
      moveReport: z.boolean(),
      viewFilter: z.boolean(),
      createFilter: z.boolean(),
      useFilter: z.boolean(),
      editFilter: z.boolean(),
      deleteFilter: z.boolean(),
      duplicateFilter: z.boolean(),
      moveFilter: z.boolean(),
      setPermissionsFilter: z.boolean(),
      useCondition: z.boolean(),
      setPermissionsCondition: z.boolean(),
      duplicateCondition: z.boolean(),
      moveCondition: z.boolean(),
      setPermissionsTask: z.boolean(),
      duplicateTask: z.boolean(),
      moveTask: z.boolean(),
      viewFolderContent: z.boolean(),
      createFolderContent: z.boolean(),
      editFolderContent: z.boolean(),
      downloadFolderContent: z.boolean(),
      deleteFolderContent: z.boolean(),
      duplicateFolderContent: z.boolean(),
      moveFolderContent: z.boolean(),
    }),
    modifiedDate: z.string().nullable(),
  }),
);

export const PermissionsModeResult = lazySchema(() =>
  z.object({
    id: z.string(),
    permissionsMode: z.boolean(),
    members: z.array(MemberPermissionResult),
  }),
);

export const MemberPermissionsResult = lazySchema(() => z.array(MemberPermissionResult));
