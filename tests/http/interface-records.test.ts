// The interface's record types (set A and set B, section 2), walked field by field against what the
// operations answer: each field the interface names is in the answering operation's declared result
// schema, under the interface's own name, and always present (required). The conformance suite checks
// every answer against those schemas, so an answer can carry more fields, never fewer or renamed ones.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS } from '../../engine/catalogue.js';
import type { AnyOp } from '../../engine/ops/op.js';

type Json = {
  type?: string | string[];
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  anyOf?: Json[];
  allOf?: Json[];
};
const catalogue = new Map<string, AnyOp>(OPERATIONS.map((o) => [o.id, o as AnyOp]));

/** The object (or array item) inside a schema that may be nullable or wrapped. */
function unwrap(s: Json): Json {
  if (s.anyOf) return unwrap(s.anyOf.find((x) => x.type !== 'null') ?? s);
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) return unwrap(s.items ?? {});
  return s;
}

/** `a`, `a.b`, `a[].b` (an array's items) → the paths missing from the schema or not required there. */
function missing(schema: Json, paths: string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    let node = unwrap(schema);
    for (const part of path.replace(/\[\]/g, '').split('.')) {
      if (!node.properties?.[part]) {
        out.push(`${path} (absent)`);
        break;
      }
      if (!node.required?.includes(part)) {
        out.push(`${path} (optional)`);
        break;
      }
      node = unwrap(node.properties[part]);
    }
  }
  return out;
}

const each = (prefix: string, fields: string) => fields.split(/,\s*/).map((f) => `${prefix}.${f}`);
const list = (fields: string) => fields.split(/,\s*/);

/** Record type → the operations answering it → the fields the interface names (set A section 2, set B section 2). */
const RECORDS: { record: string; ops: string[]; fields: string[] }[] = [
  // Set A
  {
    record: 'A 2.1 API key',
    ops: ['v1.apiKeys.create', 'v1.apiKeys.listOwn'],
    fields: list('name, description, expiryDate'),
  },
  {
    record: 'A 2.2 Condition',
    ops: ['v1.conditions.list', 'v1.conditions.create', 'v1.conditions.update'],
    fields: list('projectId, name, description, isActive'),
  },
  {
    record: 'A 2.3 Condition rule (response-style) and rule value',
    ops: [
      'v1.conditionRules.batchUpsert',
      'v1.conditionRules.list',
      'v1.conditionRules.get',
      'v1.conditionRules.upsert',
      'v1.conditionRules.update',
    ],
    fields: [
      ...list('id, conditionId, name, connectionId, connection, numberOfValues, conditionRuleValues'),
      ...each(
        'conditionRuleValues[]',
        'id, conditionRuleId, type, variable, comparisonValue, chart, chartHasValue, operator, lastReloadSuccessful, order',
      ),
    ],
  },
  {
    record: 'A 2.4 Group',
    ops: ['v1.groups.list', 'v1.groups.create', 'v1.groups.update'],
    fields: list('name, description, organizationId, isActive'),
  },
  {
    record: 'A 2.5 File and file occurrence',
    ops: ['v1.files.list', 'v1.files.listIterationFiles', 'v1.files.listFavorites', 'v1.files.listRecent'],
    fields: [
      ...list(
        'id, reportId, reportName, reportAvailableFormats, reportDelete, isIteration, occurrenceId, name, fullName, type, extension, thumbnailPath, typeMime, size, starred, lastStarDate, createdDate, fileOccurrences',
      ),
      ...each('fileOccurrences[]', 'id, fileId, name, fullName, extension, path, typeMime, size, createdDate'),
    ],
  },
  {
    record: 'A 2.5 File occurrence (list)',
    ops: ['v1.files.listOccurrences'],
    fields: list('id, fileId, name, fullName, extension, path, typeMime, size, createdDate'),
  },
  {
    record: 'A 2.6 Hub configuration',
    ops: ['app.hub.configuration', 'v1.hub.updateConfiguration'],
    fields: list('fromEmail, fromName, customEmailFooter, hideSubsciptionLink'),
  },
  {
    record: 'A 2.7 Hub folder',
    ops: ['v1.hubFolders.list', 'v1.hubFolders.create', 'v1.hubFolders.update'],
    fields: list('parentId, name, parentUrl, location'),
  },
  {
    record: 'A 2.8 Identity provider',
    ops: ['v1.identityProviders.list', 'v1.identityProviders.create', 'v1.identityProviders.update'],
    fields: list(
      'name, description, signAuthnRequest, entityID, singleSignOnUrl, type, certificatePublicKey, singleLogoutUrl, certificateFile, buttonLabel',
    ),
  },
  {
    record: 'A 2.8/2.9 Organization authentication and identity provider info',
    ops: ['app.organizations.getAuthentication', 'v1.organizations.updateAuthentication'],
    fields: [
      ...list('allowNtlm, allowJwt, identityProviders'),
      ...each('identityProviders[]', 'id, name, description, isAactive, createdDate'),
    ],
  },
  {
    record: 'A 2.9 Organization',
    ops: ['v1.organizations.list', 'v1.organizations.create', 'v1.organizations.update'],
    fields: list('name, displayName, description, themeId'),
  },
  {
    record: 'A 2.10 Analytics app',
    ops: [
      'v1.analyticsApps.list',
      'v1.analyticsApps.create',
      'v1.analyticsApps.update',
      'v1.analyticsApps.listByFolder',
      'v1.organizations.listAnalyticsApps',
    ],
    fields: [
      ...list(
        'appId, name, description, folderId, folderPath, stream, mashupTemplate, allowAnalyticsSenseApp, allowMashup, defaultOpen, templateTitle, templateDescription, themeId, organizationId, usedFields, usedSheets',
      ),
      ...each('usedFields[]', 'name, order, appId'),
      ...each('usedSheets[]', 'sheetId, sheetName, showSelection, groupName, order'),
    ],
  },
  {
    record: 'A 2.11 Schedule (task schedule)',
    ops: ['v1.taskSchedules.get', 'v1.taskSchedules.create', 'v1.taskSchedules.update'],
    fields: list(
      'name, isActive, frequency, execution, priority, timeZone, day, month, atHour, atMinut, everyHours, fromHour, fromMinut, toHour, weeklyDays, timeZoneOfset, startDate, endDate',
    ),
  },
  {
    record: 'A 2.12 Resource',
    ops: [
      'v1.resources.list',
      'v1.resources.create',
      'v1.resources.update',
      'v1.resources.listOwn',
      'v1.organizations.listResources',
    ],
    fields: list('name, description, type, organizationId, url'),
  },
  {
    record: 'A 2.13 Role and permission set',
    ops: ['v1.roles.list', 'v1.roles.create', 'v1.roles.update'],
    fields: [
      ...list('name, description, allProjects, projects, permissions, isActive'),
      ...each('projects[]', 'id, name'),
      ...each(
        'permissions',
        'id, createdDate, modifiedDate, viewProject, importProject, updateProject, deleteProject, viewTask, createTask, editTask, deleteTask, runTask, viewTaskStatus, viewUser, createUser, editUser, deleteUser, viewGroup, createGroup, editGroup, deleteGroup, viewUserDirectory, createUserDirectory, editUserDirectory, deleteUserDirectory, viewSystem, createSystem, editSystem, deleteSystem, viewSettings, editSettings, useApiKeys, previewPublishedReport, downloadPublishedReport, subscribePublishedReport, deletePublishedReport, viewCondition, createCondition, editCondition, deleteCondition, enterprise',
      ),
    ],
  },
  {
    record: 'A 2.14 Authentication methods',
    ops: ['app.settings.getAuthenticationMethods', 'v1.settings.updateAuthenticationMethods'],
    fields: list('jwtAuth, ntlmAuth'),
  },
  {
    record: 'A 2.15 Mail server',
    ops: ['app.mailServers.list', 'v1.mailServers.create', 'v1.mailServers.update'],
    fields: list(
      'name, description, fromAddress, fromName, emailPrefix, hostName, smtpPort, ssl, userName, password, testEmail',
    ),
  },
  {
    record: 'A 2.16 On-demand request',
    ops: ['v1.onDemand.generate', 'app.onDemand.get', 'app.onDemand.list'],
    fields: [
      ...list('id, type, config, selections, appId, ignoreExistingFilters, overrideReportApp'),
      ...each('config', 'reportId, outputFormat'),
      ...each('selections[]', 'fieldName, selectedCount, selectedValues, isNumeric'),
    ],
  },
  {
    record: 'A 2.17 Subscription',
    ops: [
      'v1.subscriptions.listOwn',
      'v1.subscriptions.listBySite',
      'v1.subscriptions.create',
      'v1.subscriptions.update',
    ],
    fields: [
      ...list(
        'name, description, triggerType, type, reports, analyticsEntity, format, schedule, externalEvent, recipients, subscribeTo, filter, email, isActive',
      ),
      ...each('reports[]', 'id, name, description, formats, zipEmailFiles, emailAttachment, emailEmbedment, filter'),
      ...each('filter', 'selections, selectionsPreview, bookmarkId, bookmarkName, appId, serverAddress'),
      ...each('analyticsEntity', 'id, appId, serverAddress, type, format, width, height'),
      ...each('recipients[]', 'id, fullName, email, type'),
      ...each('email', 'bc, bcc, ccAnalyticsVariableId, bccAnalyticsVariableId, subject, message'),
    ],
  },
  {
    record: 'A 2.18 Task',
    ops: ['v1.tasks.list', 'v1.tasks.create', 'v1.tasks.update', 'v1.tasks.duplicate'],
    fields: list(
      'name, projectId, description, isActive, sendNotifications, notifyIfError, notifyIfWarning, notifyIfSuccess, notificationRecipients, notificationCc, notificationBcc, testMode, testModeRecipients',
    ),
  },
  {
    record: 'A 2.19 Task report',
    ops: ['v1.taskReports.list', 'v1.taskReports.create', 'v1.taskReports.update'],
    fields: [
      ...list(
        'reportId, format, zipFolderFiles, zipEmailFiles, evaluateConditionForEachIteration, folderVariable, recipientsVariable, ftpVariable, hubAuthorizedUserVariable, dropboxVariable, onedriveVariable, googledriveVariable, emailAttachment, emailEmbedment, publishToServiceHub, maxFileOccurrences, secureOutputFiles, fileOpenPassword, fileWritePassword, isOpenFilePasswordProtected, isWriteFilePasswordProtected, reportConditions, reportFilters, reportStorageServices, reportFolders, overwriteReportApps',
      ),
      ...each('reportConditions[]', 'id, taskReportId, conditionId'),
      ...each('reportFilters[]', 'id, taskReportId, filterId, order'),
      ...each('reportStorageServices[]', 'id, fileStorageServiceId, path, sharePointSiteUrl, order'),
      ...each('reportFolders[]', 'id, taskReportId, path'),
      ...each('overwriteReportApps[]', 'reportId, analyticsApps'),
      ...each('overwriteReportApps[].analyticsApps[]', 'analyticsAppId, newAnalyticsAppId'),
    ],
  },
  {
    record: 'A 2.20 Task recipient',
    ops: ['v1.taskRecipients.list', 'v1.taskRecipients.update'],
    fields: list('id, type, sendEmail, seeInHub'),
  },
  {
    record: 'A 2.20 Task external event',
    ops: ['v1.taskExternalEvents.get', 'v1.taskExternalEvents.create', 'v1.taskExternalEvents.update'],
    fields: list('name, description, appId, isActive, execution, priority, startDate, endDate'),
  },
  {
    record: 'A 2.20 Task e-mail',
    ops: ['v1.taskEmail.update'],
    fields: list(
      'taskId, from, bcBcc, bc, bcc, ccAnalyticsVariableId, bccAnalyticsVariableId, subject, message, isActive, oneToAll',
    ),
  },
  {
    record: 'A 2.21 Trusted origin',
    ops: ['v1.trustedOrigins.list', 'v1.trustedOrigins.create', 'v1.trustedOrigins.update'],
    fields: list('name, description, address'),
  },
  {
    record: 'A 2.22 User and recipient',
    ops: [
      'v1.users.list',
      'v1.users.create',
      'v1.users.update',
      'v1.recipients.create',
      'v1.recipients.update',
      'v1.recipients.convertToUser',
    ],
    fields: [
      ...list(
        'domainAccount, firstName, lastName, email, password, isActive, sendNotification, isoLanguage, roles, organizations, groups',
      ),
      ...each('roles[]', 'id, name'),
      ...each('organizations[]', 'id, name'),
      ...each('groups[]', 'id, name'),
    ],
  },
  {
    record: 'A 2.23 User directory',
    ops: ['v1.userDirectories.list', 'v1.userDirectories.create', 'v1.userDirectories.update'],
    fields: list(
      'type, name, prefix, userDirectoryName, azureClientId, azureTenantId, azureClientSecret, hostName, port, userName, password, sendNotification, defaultUserRole, filter, synchronization, frequency, frequencyTime, timeZone, isActive, organizationId',
    ),
  },
  // Set B
  {
    record: 'B 2.3 API key',
    ops: ['v2.apiKeys.create', 'v2.apiKeys.update'],
    fields: list('name, description, expiryDate, organizationID'),
  },
  {
    record: 'B 2.4 Condition',
    ops: ['v2.conditions.create', 'v2.conditions.update', 'v2.conditions.duplicate'],
    fields: list('name, description, projectID'),
  },
  {
    record: 'B 2.4 Condition rule',
    ops: ['v2.conditionRules.upsert'],
    fields: [
      ...list('id, name, analyticsAppID, values'),
      ...each('values[]', 'type, variable, comparisonValue, chart, chartHasValue, operator, order'),
    ],
  },
  {
    record: 'B 2.5 Filter',
    ops: ['v2.filters.create', 'v2.filters.update', 'v2.filters.duplicate'],
    fields: list('name, description, projectID'),
  },
  {
    record: 'B 2.6 Group',
    ops: ['v2.groups.create', 'v2.groups.update', 'v2.groups.setMembers'],
    fields: list('name, description, organizationID'),
  },
  {
    record: 'B 2.7 Identity provider (the client secret is never answered)',
    ops: ['v2.identityProviders.create', 'v2.identityProviders.update'],
    fields: list(
      'name, description, type, clientID, authorizationEndpoint, accessTokenEndpoint, userinfoEndpoint, logoutEndpoint, postLogoutRedirectUrl',
    ),
  },
  {
    record: 'B 2.8 Organization',
    ops: ['v2.organizations.create', 'v2.organizations.update'],
    fields: list('name, displayName, description, themeID'),
  },
  {
    record: 'B 2.8 Organization authentication',
    ops: ['v2.organizations.updateAuthentication'],
    fields: list('serviceAuth, identityProvider'),
  },
  { record: 'B 2.9 Project', ops: ['v2.projects.update'], fields: list('name, description') },
  {
    record: 'B 2.10 Report',
    ops: ['v2.reports.create', 'v2.reports.update', 'v2.reports.duplicate'],
    fields: [
      ...list('name, description, projectID, type, isIteration, iterationFields, dynamicNameSeparator, dynamicNames'),
      ...each('iterationFields[]', 'fieldID, order'),
      ...each('dynamicNames[]', 'itemType, value, order, variableAnalyticsAppID'),
    ],
  },
  {
    record: 'B 2.11 Storage service',
    ops: ['v2.storageServices.update'],
    fields: list('name, description, type, host, username, password, passiveMode, ftpTestDirectoryPath, sftpPort'),
  },
  {
    record: 'B 2.12 Task',
    ops: ['v2.tasks.create', 'v2.tasks.update'],
    fields: list(
      'name, description, projectID, isActive, sendNotifications, notifyIfError, notifyIfWarning, notifyIfSuccess, notificationRecipients, notificationCc, notificationBcc, testMode, testModeRecipients',
    ),
  },
  {
    record: 'B 2.12 Task e-mail',
    ops: ['v2.tasks.updateEmail'],
    fields: list(
      'from, ccBcc, cc, bcc, ccAnalyticsVariable, bccAnalyticsVariable, subject, message, isActive, oneToAll',
    ),
  },
  {
    record: 'B 2.12 Task schedule',
    ops: ['v2.tasks.upsertSchedule'],
    fields: list(
      'name, frequency, execution, priority, timeZone, day, month, atHour, atMinut, everyHours, fromHour, fromMinut, toHour, toMinut, weeklyDays, startDate, endDate',
    ),
  },
  {
    record: 'B 2.12 Task external event',
    ops: ['v2.tasks.getExternalEvent', 'v2.tasks.upsertExternalEvent'],
    fields: list('name, execution, priority, description, appID, analyticsEvent, startDate, endDate, timeZone'),
  },
  {
    record: 'B 2.12 Task report',
    ops: ['v2.tasks.upsertReport'],
    fields: [
      ...list(
        'reportID, format, emailEmbedment, emailAttachment, fileOpenPassword, fileWritePassword, isOpenFilePasswordProtected, isWriteFilePasswordProtected, iterationOptions, filters, conditions, storageServices, hub, fileStorage, separatorOptions',
      ),
      ...each('iterationOptions', 'zipEmailFiles, evaluateConditionForEachIteration, recipientsVariable'),
      ...each('filters[]', 'id, name, order'),
      ...each('conditions[]', 'id, name'),
      ...each('storageServices[]', 'id, fileStorageServiceID, type, name, path, zipeFiles, siteUrl, order'),
      ...each('hub', 'folderID, hubMaxFileOccurrences'),
      ...each('fileStorage', 'fileStorageServiceID, path'),
      ...each('separatorOptions', 'numberDecimalSeparator, numberGroupSeparator'),
    ],
  },
  {
    record: 'B 2.13 Recipient',
    ops: ['v2.recipients.create'],
    fields: list('firstName, lastName, email, organizations'),
  },
];

describe('every operation that answers data declares its result schema', () => {
  it('all but the file downloads', () => {
    const undeclared = OPERATIONS.filter((o) => !o.result && !(o as AnyOp).files).map((o) => o.id);
    expect(undeclared).toEqual([]);
  });
});

describe.each(RECORDS)('$record', ({ ops, fields }) => {
  it.each(ops)('%s answers every field under its interface name', (id) => {
    const op = catalogue.get(id);
    expect(op, `${id} is not in the catalogue`).toBeDefined();
    expect(op!.result, `${id} declares no result schema`).toBeDefined();
    const schema = z.toJSONSchema(op!.result!, { io: 'output', unrepresentable: 'any' }) as Json;
    expect(missing(schema, fields)).toEqual([]);
  });
});
