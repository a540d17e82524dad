import { lazySchema } from '../../core/lazy-schema.js';
import { REPORT_FILE_MIMES } from '../../render/formats.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, uuidParams, v } from '../../core/validation.js';
import {
  deleteFiles,
  downloadFile,
  LIST_FAVORITES,
  LIST_FILES,
  LIST_ITERATION_FILES,
  LIST_OCCURRENCES,
  LIST_RECENT,
  listFavorites,
  listFiles,
  listIterationFiles,
  listOccurrences,
  listRecent,
  previewFile,
  setStar,
} from './hub-files.rules.js';
import {
  deleteHubFolders,
  hubConfiguration,
  HubConfigurationInput,
  HubFolderInput,
  LIST_HUB_FOLDERS,
  listHubFolders,
  saveHubFolder,
  updateHubConfiguration,
} from './hub-folders.rules.js';
import {
  HubFileResult,
  FileOccurrenceResult,
  FilesStarResult,
  HubFolderResult,
  HubFoldersDeleteResult,
  HubResult,
} from './hub.results.js';
import { DeletedResult } from '../common.results.js';

// The hub: what task reports publish, seen by their recipients (see hub-visibility.ts). Reading a
// file needs `previewPublishedReport`, downloading `downloadPublishedReport`, deleting
// `deletePublishedReport`; folders and the hub's sender are settings.

const FileRecord = z.object({ id: v.uuid() }).passthrough();
const Download = lazySchema(() =>
  z.object({
    id: v.uuid(),
    isIteration: z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]).optional(),
  }),
);
const IterationParams = lazySchema(() =>
  z.object({
    id: v.uuid(),
    extension: v.text(10).regex(/^\.?[A-Za-z0-9]+$/, { message: 'must be a file extension such as pdf' }),
  }),
);

export const hubOps = [
  defineOp({
    id: 'v1.files.list',
    summary: 'List all files (single, iteration, dedicated)',
    http: { method: 'GET', path: '/api/v1/files' },
    permission: 'previewPublishedReport',
    list: LIST_FILES,
    result: HubFileResult,
    handler: (ctx, { list }) => listFiles(ctx, list),
  }),
  defineOp({
    id: 'v1.files.listOccurrences',
    summary: 'List occurrences of a file',
    http: { method: 'GET', path: '/api/v1/files/{id}/occurrences' },
    permission: 'previewPublishedReport',
    objects: { 'params.id': 'hubFile' },
    input: { params: idParam },
    list: LIST_OCCURRENCES,
    result: FileOccurrenceResult,
    handler: (ctx, { params, list }) => listOccurrences(ctx, params.id, list),
  }),
  defineOp({
    id: 'v1.files.listIterationFiles',
    summary: 'List iteration report files for a report and extension',
    http: { method: 'GET', path: '/api/v1/files/reports/{id}/{extension}' },
    permission: 'previewPublishedReport',
    objects: { 'params.extension': 'none', 'params.id': 'hubFile' },
    input: { params: IterationParams },
    list: LIST_ITERATION_FILES,
    result: HubFileResult,
    handler: (ctx, { params, list }) => listIterationFiles(ctx, params.id, params.extension, list),
  }),
  defineOp({
    id: 'v1.files.listFavorites',
    summary: 'List favorite files of the authenticated user',
    http: { method: 'GET', path: '/api/v1/files/favorites' },
    permission: 'previewPublishedReport',
    list: LIST_FAVORITES,
    result: HubFileResult,
    handler: (ctx, { list }) => listFavorites(ctx, list),
  }),
  defineOp({
    id: 'v1.files.listRecent',
    summary: 'List recent files viewed or added within the last 7 days',
    http: { method: 'GET', path: '/api/v1/files/recent' },
    permission: 'previewPublishedReport',
    list: LIST_RECENT,
    result: HubFileResult,
    handler: (ctx, { list }) => listRecent(ctx, list),
  }),
  defineOp({
    id: 'v1.files.delete',
    summary: 'Delete files and all their occurrences',
    http: { method: 'DELETE', path: '/api/v1/files' },
    permission: 'deletePublishedReport',
    objects: { 'body[].id': 'hubFile' },
    input: { body: z.array(FileRecord).max(10_000) },
    result: DeletedResult,
    handler: (ctx, { body }) =>
      deleteFiles(
        ctx,
        body.map((f) => f.id),
      ),
  }),
  defineOp({
    id: 'v1.files.download',
    summary: 'Download a file or zipped report file',
    http: { method: 'GET', path: '/api/v1/files/download' },
    permission: 'downloadPublishedReport',
    objects: { 'query.id': 'hubFile' },
    input: { query: Download },
    files: REPORT_FILE_MIMES,
    handler: (ctx, { query }) => downloadFile(ctx, query.id, query.isIteration ?? false),
  }),
  defineOp({
    id: 'app.files.preview',
    summary: 'A published PDF or image, to show in the page',
    http: { method: 'GET', path: '/api/v1/files/{id}/preview' },
    permission: 'previewPublishedReport',
    objects: { 'params.id': 'hubFile' },
    input: { params: idParam },
    files: REPORT_FILE_MIMES,
    handler: (ctx, { params }) => previewFile(ctx, params.id),
  }),
  defineOp({
    id: 'app.files.star',
    summary: 'Star a file (add it to favourites)',
    http: { method: 'PUT', path: '/api/v1/files/{id}/star' },
    permission: 'previewPublishedReport',
    objects: { 'params.id': 'hubFile' },
    input: { params: idParam },
    result: FilesStarResult,
    handler: (ctx, { params }) => setStar(ctx, params.id, true),
  }),
  defineOp({
    id: 'app.files.unstar',
    summary: 'Unstar a file',
    http: { method: 'DELETE', path: '/api/v1/files/{id}/star' },
    permission: 'previewPublishedReport',
    objects: { 'params.id': 'hubFile' },
    input: { params: idParam },
    result: FilesStarResult,
    handler: (ctx, { params }) => setStar(ctx, params.id, false),
  }),
  defineOp({
    id: 'app.hub.configuration',
    summary: 'The hub configuration',
    http: { method: 'GET', path: '/api/v1/hub/configuration' },
    permission: 'viewSettings',
    result: HubResult,
    handler: (ctx) => hubConfiguration(ctx),
  }),
  defineOp({
    id: 'v1.hub.updateConfiguration',
    summary: 'Update hub configuration',
    http: { method: 'PUT', path: '/api/v1/hub/configuration/{id}' },
    permission: 'editSettings',
    objects: { 'params.id': 'hubConfiguration' },
    input: { params: idParam, body: HubConfigurationInput },
    result: HubResult,
    handler: (ctx, { params, body }) => updateHubConfiguration(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.hubFolders.create',
    summary: 'Add folder',
    http: { method: 'POST', path: '/api/v1/hub/folders' },
    permission: 'editSettings',
    objects: { 'body.parentId': 'hubFolder' },
    input: { body: HubFolderInput },
    result: HubFolderResult,
    handler: (ctx, { body }) => saveHubFolder(ctx, null, body),
  }),
  defineOp({
    id: 'v1.hubFolders.list',
    summary: 'List folders',
    http: { method: 'GET', path: '/api/v1/hub/folders' },
    permission: 'previewPublishedReport',
    list: LIST_HUB_FOLDERS,
    result: HubFolderResult,
    handler: (ctx, { list }) => listHubFolders(ctx, list),
  }),
  defineOp({
    id: 'v1.hubFolders.update',
    summary: 'Update folder',
    http: { method: 'PUT', path: '/api/v1/hub/folders/{HubFolderId}' },
    permission: 'editSettings',
    objects: { 'body.parentId': 'hubFolder', 'params.HubFolderId': 'hubFolder' },
    input: { params: uuidParams('HubFolderId'), body: HubFolderInput },
    result: HubFolderResult,
    handler: (ctx, { params, body }) => saveHubFolder(ctx, params.HubFolderId, body),
  }),
  defineOp({
    id: 'v1.hubFolders.delete',
    summary: 'Delete folders',
    http: { method: 'DELETE', path: '/api/v1/hub/folders' },
    permission: 'editSettings',
    objects: { 'body[]': 'hubFolder' },
    input: { body: v.uuidList() },
    result: HubFoldersDeleteResult,
    handler: (ctx, { body }) => deleteHubFolders(ctx, body),
  }),
] as const;
