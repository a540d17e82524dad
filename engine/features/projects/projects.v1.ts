import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import type { ListSpec } from '../../core/list-query.js';
import { deleteProjects, LIST_PROJECTS, listProjects, requireOrganization } from './projects.rules.js';
import { ProjectResult, ProjectsDeleteResult } from './projects.results.js';

// Set A, Projects
const DeleteV1 = z
  .array(z.object({ id: v.uuid(), name: v.text() }))
  .min(1, { message: 'name at least one project' })
  .max(1000);
const DeleteQuery = lazySchema(() => z.object({ deleteFiles: z.enum(['true', 'false']).optional() }));
const LIST_ORG_PROJECTS: ListSpec = {
  sort: { Name: 'LOWER(p.name)', Description: 'LOWER(p.description)' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'p.name' },
};

export const projectsV1 = [
  defineOp({
    id: 'v1.projects.list',
    summary: 'List projects',
    http: { method: 'GET', path: '/api/v1/projects' },
    permission: 'viewProject',
    member: { project: 'view' },
    list: LIST_PROJECTS,
    result: ProjectResult,
    handler: (ctx, { list }) => listProjects(ctx, LIST_PROJECTS, list),
  }),
  defineOp({
    id: 'v1.projects.delete',
    summary: 'Delete projects; each is named with its id and name, which must match',
    http: { method: 'DELETE', path: '/api/v1/projects' },
    permission: 'deleteProject',
    objects: { 'body[].id': 'project' },
    member: { project: 'delete' },
    input: { query: DeleteQuery, body: DeleteV1 },
    result: ProjectsDeleteResult,
    handler: async (ctx, { body, query }) => ({
      deleted: await deleteProjects(ctx, body),
      deleteFiles: query.deleteFiles === 'true',
    }),
  }),
  defineOp({
    id: 'v1.organizations.listProjects',
    summary: 'List projects of an organization',
    http: { method: 'GET', path: '/api/v1/organizations/{id}/projects' },
    permission: 'viewProject',
    objects: { 'params.id': 'organization' },
    member: { project: 'view' },
    input: { params: idParam },
    list: LIST_ORG_PROJECTS,
    result: ProjectResult,
    handler: async (ctx, { params, list }) => {
      await requireOrganization(ctx, params.id);
      return listProjects(ctx, LIST_ORG_PROJECTS, list, params.id);
    },
  }),
] as const;
