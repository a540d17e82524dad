import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { pageOf, type ListSpec } from '../../core/list-query.js';
import { badInput } from '../../core/errors.js';
import { FileResult, safeFileName } from '../../core/file-result.js';
import { IMPORT_BODY_LIMIT } from '../../core/limits.js';
import { findOr404 } from '../../core/rows.js';
import { Organization } from '../organizations/organizations.entity.js';
import { Project } from './projects.entity.js';
import { createProject, defaultOrganizationId, LIST_PROJECTS, projectDto, reachableProject, updateProject, visibleProjects } from './projects.rules.js';
import { exportProject, importProject, ProjectFile } from './project-file.js';

const CreateApp = z.object({ name: v.text(), description: v.nstr(), organizationId: v.nuuid() });
const UpdateV2 = z.object({ name: v.text(), description: v.nstr() });
const DeleteV1 = z.array(z.object({ id: v.uuid(), name: v.text() })).min(1, { message: 'name at least one project' });
const DeleteQuery = z.object({ deleteFiles: z.enum(['true', 'false']).optional() });
const ImportApp = z.object({ file: ProjectFile, organizationId: v.nuuid() });
const LIST_ORG_PROJECTS: ListSpec = { sort: { Name: 'LOWER(p.name)', Description: 'LOWER(p.description)' }, defaultSort: { by: 'Name', direction: 'asc' }, text: { name: 'p.name' } };

export const projectsOps = [
  defineOp({
    id: 'app.projects.create',
    summary: 'Create a project (in the Default organization unless one is named)',
    http: { method: 'POST', path: '/api/app/projects' },
    permission: 'updateProject',
    input: { body: CreateApp },
    handler: async (ctx, { body }) => {
      const organizationId = body.organizationId ?? (await defaultOrganizationId(ctx));
      await findOr404(ctx, Organization, organizationId, 'Organization');
      return projectDto(await createProject(ctx, { ...body, organizationId }));
    },
  }),
  defineOp({
    id: 'app.projects.get',
    summary: 'One project',
    http: { method: 'GET', path: '/api/app/projects/{id}' },
    permission: 'viewProject',
    input: { params: idParam },
    handler: async (ctx, { params }) => projectDto(await reachableProject(ctx, params.id)),
  }),
  defineOp({
    id: 'app.projects.export',
    summary: 'Export a project (connections, filters, reports) to a single file',
    http: { method: 'GET', path: '/api/app/projects/{id}/export' },
    permission: 'viewProject',
    input: { params: idParam },
    handler: async (ctx, { params }) => {
      const project = await reachableProject(ctx, params.id);
      const file = await exportProject(ctx, project);
      return new FileResult(`${safeFileName(project.name)}.broadsheet.json`, 'application/json', Buffer.from(JSON.stringify(file, null, 1)));
    },
  }),
  defineOp({
    id: 'app.projects.import',
    summary: 'Import a project file as a new project',
    http: { method: 'POST', path: '/api/app/projects/import', bodyLimit: IMPORT_BODY_LIMIT },
    permission: 'importProject',
    writes: 'chunked',
    input: { body: ImportApp },
    handler: async (ctx, { body }) => {
      const organizationId = body.organizationId ?? (await defaultOrganizationId(ctx));
      await findOr404(ctx, Organization, organizationId, 'Organization');
      return projectDto(await importProject(ctx, body.file, organizationId));
    },
  }),
  defineOp({
    id: 'v1.projects.list',
    summary: 'List projects',
    http: { method: 'GET', path: '/api/v1/projects' },
    permission: 'viewProject',
    list: LIST_PROJECTS,
    handler: (ctx, { list }) => pageOf(visibleProjects(ctx, ctx.db.getRepository(Project).createQueryBuilder('p')), LIST_PROJECTS, list, 'p.id', projectDto),
  }),
  defineOp({
    id: 'v1.projects.delete',
    summary: 'Delete projects; each is named with its id and name, which must match',
    http: { method: 'DELETE', path: '/api/v1/projects' },
    permission: 'deleteProject',
    input: { query: DeleteQuery, body: DeleteV1 },
    handler: async (ctx, { body, query }) => {
      const rows = [];
      for (const [i, item] of body.entries()) {
        const p = await reachableProject(ctx, item.id);
        if (p.name !== item.name) throw badInput(`Project ${item.id} is called "${p.name}", not "${item.name}"`, [{ field: `body.${i}.name`, message: 'does not match the project\'s name' }]);
        rows.push(p);
      }
      // Connections, filters and reports go with the project (cascade); generated files come with the runner.
      if (rows.length) await ctx.db.getRepository(Project).delete(rows.map((p) => p.id));
      return { deleted: rows.length, deleteFiles: query.deleteFiles === 'true' };
    },
  }),
  defineOp({
    id: 'v1.organizations.listProjects',
    summary: 'List projects of an organization',
    http: { method: 'GET', path: '/api/v1/organizations/{id}/projects' },
    permission: 'viewProject',
    input: { params: idParam },
    list: LIST_ORG_PROJECTS,
    handler: async (ctx, { params, list }) => {
      await findOr404(ctx, Organization, params.id, 'Organization');
      const qb = visibleProjects(ctx, ctx.db.getRepository(Project).createQueryBuilder('p').where('p.organizationId = :org', { org: params.id }));
      return pageOf(qb, LIST_ORG_PROJECTS, list, 'p.id', projectDto);
    },
  }),
  defineOp({
    id: 'v2.projects.update',
    summary: 'Update project',
    http: { method: 'PUT', path: '/api/v2/projects/{id}' },
    permission: 'updateProject',
    input: { params: idParam, body: UpdateV2 },
    handler: (ctx, { params, body }) => updateProject(ctx, params.id, body),
  }),
] as const;
