import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import { findOr404 } from '../../core/rows.js';
import { Organization } from '../../model/organizations.entity.js';
import { organizationAuthenticationDto } from './organizations.rules.js';
import { OrganizationsUpdateAuthenticationResult } from './organizations.results.js';

export const organizationsApp = [
  defineOp({
    id: 'app.organizations.getAuthentication',
    summary: "Read an organization's sign-in settings and linked identity providers",
    http: { method: 'GET', path: '/api/app/organizations/{id}/authentication' },
    permission: 'viewSystem',
    objects: { 'params.id': 'organization' },
    input: { params: idParam },
    result: OrganizationsUpdateAuthenticationResult,
    handler: async (ctx, { params }) =>
      organizationAuthenticationDto(ctx, await findOr404(ctx, Organization, params.id, 'Organization')),
  }),
] as const;
