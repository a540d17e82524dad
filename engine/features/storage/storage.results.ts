import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';
import { STORAGE_TYPES } from '../../core/enumerations.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const StorageServiceResult = lazySchema(() =>
  z.object({
    password: z.null(),
    sftpPort: z.number().nullable(),
    hasPassword: z.boolean(),
    hasPrivateKey: z.boolean(),
    ftpTestDirectoryPath: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(STORAGE_TYPES),
    host: z.string().nullable(),
    port: z.number().nullable(),
    username: z.string().nullable(),
    hostKey: z.string().nullable(),
    passiveMode: z.boolean(),
    rootPath: z.string().nullable(),
    isDefault: z.boolean(),
    /** A cloud drive: the account connected (null until one is), and whether its tokens are held. */
    account: z.string().nullable(),
    connected: z.boolean(),
    siteUrl: z.string().nullable(),
    library: z.string().nullable(),
    organizationId: z.string().nullable(),
    id: z.string(),
  }),
);

export { ConnectionTestResult as StorageServicesTestResult } from '../common.results.js';
