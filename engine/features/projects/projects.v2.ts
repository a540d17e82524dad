import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { updateProject } from './projects.rules.js';
import { ProjectResult } from './projects.results.js';

// Set B 2.9
const UpdateV2 = lazySchema(() => z.object({ name: v.text(), description: v.nstr() }));

export const projectsV2 = [
  defineOp({
    id: 'v2.projects.update',
    summary: 'Update project',
    http: { method: 'PUT', path: '/api/v2/projects/{id}' },
    permission: 'updateProject',
    objects: { 'params.id': 'project' },
    member: { project: 'edit' },
    input: { params: idParam, body: UpdateV2 },
    result: ProjectResult,
    handler: (ctx, { params, body }) => updateProject(ctx, params.id, body),
  }),
] as const;
