import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { ApiKeyResult, NewApiKeyResult } from './api-keys.rules.js';
import { lazySchema } from '../../core/lazy-schema.js';

// Set B's answers: the same key, with its organization also under set B's name `organizationID`.
export const NewApiKeyBResult = lazySchema(() => withSetBIdsSchema(NewApiKeyResult, 'organizationId'));
export const ApiKeyBResult = lazySchema(() => withSetBIdsSchema(ApiKeyResult, 'organizationId'));
