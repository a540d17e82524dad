import type { z } from 'zod';
import type { TaskReportInput } from './task-reports.rules.js';
import type { TaskReportA, TaskReportB } from './tasks.inputs.js';

// Each set's task report body mapped onto the one model; absent fields stay as they were.

export function taskReportInputA(b: z.output<typeof TaskReportA>): TaskReportInput {
  return {
    reportId: b.reportId,
    format: b.format,
    fileOpenPassword: b.fileOpenPassword,
    fileWritePassword: b.fileWritePassword,
    fields: { reportId: 'body.reportId', filters: 'body.reportFilters', conditions: 'body.reportConditions' },
    options: {
      zipFolderFiles: b.zipFolderFiles,
      zipEmailFiles: b.zipEmailFiles,
      evaluateConditionForEachIteration: b.evaluateConditionForEachIteration,
      folderVariable: b.folderVariable,
      recipientsVariable: b.recipientsVariable,
      ftpVariable: b.ftpVariable,
      hubAuthorizedUserVariable: b.hubAuthorizedUserVariable,
      dropboxVariable: b.dropboxVariable,
      onedriveVariable: b.onedriveVariable,
      googledriveVariable: b.googledriveVariable,
      emailAttachment: b.emailAttachment,
      emailEmbedment: b.emailEmbedment,
      publishToServiceHub: b.publishToServiceHub,
      maxFileOccurrences: b.maxFileOccurrences ?? undefined,
      secureOutputFiles: b.secureOutputFiles,
      isOpenFilePasswordProtected: b.isOpenFilePasswordProtected,
      isWriteFilePasswordProtected: b.isWriteFilePasswordProtected,
      conditionIds: b.reportConditions?.map((c) => c.conditionId),
      filterIds: b.reportFilters
        ? [...b.reportFilters].sort((x, y) => x.order - y.order).map((f) => f.filterId)
        : undefined,
      storageServices: b.reportStorageServices?.map((s) => ({
        fileStorageServiceId: s.fileStorageServiceId,
        path: s.path,
        siteUrl: s.sharePointSiteUrl ?? null,
        zipFiles: false,
        order: s.order,
      })),
      folders: b.reportFolders?.map((f) => f.path),
      overwriteReportApps: b.overwriteReportApps ?? undefined,
    },
  };
}

/** Set B's storage services, and its single file-storage target when that names a storage service. */
function storageServicesB(b: z.output<typeof TaskReportB>) {
  const list = b.storageServices?.map((s) => ({
    fileStorageServiceId: s.fileStorageServiceID,
    path: s.path,
    siteUrl: s.siteUrl ?? null,
    zipFiles: s.zipeFiles ?? false,
    order: s.order,
  }));
  const target = b.fileStorage?.fileStorageServiceID;
  if (!target) return list;
  const all = list ?? [];
  return [
    ...all,
    {
      fileStorageServiceId: target,
      path: b.fileStorage?.path ?? '',
      siteUrl: null,
      zipFiles: false,
      order: all.length,
    },
  ];
}

export function taskReportInputB(b: z.output<typeof TaskReportB>): TaskReportInput {
  return {
    reportId: b.reportID,
    format: b.format,
    fileOpenPassword: b.fileOpenPassword,
    fileWritePassword: b.fileWritePassword,
    fields: { reportId: 'body.reportID', filters: 'body.filters', conditions: 'body.conditions' },
    options: {
      emailAttachment: b.emailAttachment,
      emailEmbedment: b.emailEmbedment,
      isOpenFilePasswordProtected: b.isOpenFilePasswordProtected,
      isWriteFilePasswordProtected: b.isWriteFilePasswordProtected,
      zipEmailFiles: b.iterationOptions?.zipEmailFiles,
      evaluateConditionForEachIteration: b.iterationOptions?.evaluateConditionForEachIteration,
      recipientsVariable: b.iterationOptions?.recipientsVariable,
      folderVariable: b.iterationOptions?.folderVariable,
      hubAuthorizedUserVariable: b.iterationOptions?.hubAuthorizedUserVariable,
      filterIds: b.filters ? [...b.filters].sort((x, y) => x.order - y.order).map((f) => f.id) : undefined,
      conditionIds: b.conditions?.map((c) => c.id),
      storageServices: storageServicesB(b),
      hubFolderId: b.hub?.folderID ?? undefined,
      maxFileOccurrences: b.hub?.hubMaxFileOccurrences ?? undefined,
      publishToServiceHub: b.hub ? !!b.hub.folderID : undefined,
      folders: b.fileStorage?.path && !b.fileStorage.fileStorageServiceID ? [b.fileStorage.path] : undefined,
      numberDecimalSeparator: b.separatorOptions?.numberDecimalSeparator,
      numberGroupSeparator: b.separatorOptions?.numberGroupSeparator,
    },
  };
}
