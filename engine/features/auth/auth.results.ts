import { z } from 'zod';
import { UserResult } from '../common.results.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const AuthResult = lazySchema(() => z.object({ user: UserResult, token: z.string(), expiresAt: z.string() }));

export const AuthLogoutResult = lazySchema(() => z.object({ loggedOut: z.boolean() }));

export const AuthMeResult = lazySchema(() =>
  z.object({
    user: UserResult,
    via: z.enum(['session', 'apiKey', 'jwt']),
    isTenantOwner: z.boolean(),
    isTenantAdmin: z.boolean(),
    allProjects: z.boolean(),
    projectIds: z.array(z.string()),
    permissions: z.object({
      viewProject: z.boolean(),
      importProject: z.boolean(),
      updateProject: z.boolean(),
      deleteProject: z.boolean(),
      viewTask: z.boolean(),
      createTask: z.boolean(),
      editTask: z.boolean(),
      deleteTask: z.boolean(),
      runTask: z.boolean(),
      viewTaskStatus: z.boolean(),
      viewUser: z.boolean(),
      createUser: z.boolean(),
      editUser: z.boolean(),
      deleteUser: z.boolean(),
      viewGroup: z.boolean(),
      createGroup: z.boolean(),
      editGroup: z.boolean(),
      deleteGroup: z.boolean(),
      viewUserDirectory: z.boolean(),
      createUserDirectory: z.boolean(),
      editUserDirectory: z.boolean(),
      deleteUserDirectory: z.boolean(),
      viewSystem: z.boolean(),
      createSystem: z.boolean(),
      editSystem: z.boolean(),
      deleteSystem: z.boolean(),
      viewSettings: z.boolean(),
      editSettings: z.boolean(),
      useApiKeys: z.boolean(),
      previewPublishedReport: z.boolean(),
      downloadPublishedReport: z.boolean(),
      subscribePublishedReport: z.boolean(),
      deletePublishedReport: z.boolean(),
      viewCondition: z.boolean(),
      createCondition: z.boolean(),
      editCondition: z.boolean(),
      deleteCondition: z.boolean(),
      enterprise: z.boolean(),
    }),
    operations: z.array(z.string()),
  }),
);
