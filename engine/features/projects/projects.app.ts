import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { FileResult, safeFileName } from '../../core/file-result.js';
import { IMPORT_BODY_LIMIT } from '../../core/limits.js';
import { createProject, projectDto, targetOrganization } from './projects.rules.js';
import { reachableProject } from '../../access/project-reach.js';
import { exportProject, importProject, ProjectFile } from './project-file.js';
import { ProjectAccessResult, ProjectResult } from './projects.results.js';
import { projectAccess } from './project-access.js';

const CreateApp = lazySchema(() => z.object({ name: v.text(), description: v.nstr(), organizationId: v.nuuid() }));
const ImportApp = lazySchema(() => z.object({ file: ProjectFile, organizationId: v.nuuid() }));

export const projectsApp = [
  defineOp({
    id: 'app.projects.create',
    summary: 'Create a project (in the Default organization unless one is named)',
    http: { method: 'POST', path: '/api/app/projects' },
    permission: 'updateProject',
    objects: { 'body.organizationId': 'organization' },
    member: { project: 'create' },
    input: { body: CreateApp },
    result: ProjectResult,
    handler: async (ctx, { body }) =>
      projectDto(
        await createProject(ctx, { ...body, organizationId: await targetOrganization(ctx, body.organizationId) }),
      ),
  }),
  defineOp({
    id: 'app.projects.get',
    summary: 'One project',
    http: { method: 'GET', path: '/api/app/projects/{id}' },
    permission: 'viewProject',
    objects: { 'params.id': 'project' },
    member: { project: 'view' },
    input: { params: idParam },
    result: ProjectResult,
    handler: async (ctx, { params }) => projectDto(await reachableProject(ctx, params.id)),
  }),
  defineOp({
    id: 'app.projects.access',
    summary:
      'What the caller may do in a project: the operations they may call on it and on each of its reports, filters, conditions and tasks (the checks that enforce them, asked without acting)',
    http: { method: 'GET', path: '/api/app/projects/{id}/access' },
    permission: 'viewProject',
    objects: { 'params.id': 'project' },
    member: { project: 'view' },
    input: { params: idParam },
    result: ProjectAccessResult,
    handler: (ctx, { params }) => projectAccess(ctx, params.id),
  }),
  defineOp({
    id: 'app.projects.export',
    summary: 'Export a project (connections, filters, reports) to a single file',
    http: { method: 'GET', path: '/api/app/projects/{id}/export' },
    permission: 'viewProject',
    objects: { 'params.id': 'project' },
    member: { project: 'view' },
    input: { params: idParam },
    files: ['application/json'],
    handler: async (ctx, { params }) => {
      const project = await reachableProject(ctx, params.id);
      const file = await exportProject(ctx, project);
      return new FileResult(
        `${safeFileName(project.name)}.broadsheet.json`,
        'application/json',
        Buffer.from(JSON.stringify(file, null, 1)),
      );
    },
  }),
  defineOp({
    id: 'app.projects.import',
    summary: 'Import a project file as a new project',
    http: { method: 'POST', path: '/api/app/projects/import', bodyLimit: IMPORT_BODY_LIMIT },
    permission: 'importProject',
    objects: {
      'body.file.connections[].appId': 'none',
      'body.file.filters[].values[].targetId': 'none',
      'body.file.reports[].document.blocks[].chartId': 'none',
      'body.file.reports[].document.blocks[].id': 'none',
      'body.file.reports[].dynamicNames[].variableAnalyticsAppID': 'none',
      'body.file.reports[].iterationFields[].fieldID': 'none',
      'body.organizationId': 'organization',
    },
    member: { project: 'create' },
    writes: 'chunked',
    input: { body: ImportApp },
    result: ProjectResult,
    handler: async (ctx, { body }) =>
      projectDto(await importProject(ctx, body.file, await targetOrganization(ctx, body.organizationId))),
  }),
] as const;
