import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { type ListSpec, pageOfEntity } from '../../core/list-query.js';
import { Organization } from '../../model/organizations.entity.js';
import { listOrganizationMembers, listOrganizationResources } from './organizations.rules.js';
import {
  createOrganization,
  deleteOrganizations,
  organizationDto,
  OrganizationResult,
  setOrganizationAuthentication,
  SORT_ORGANIZATIONS,
  updateOrganization,
} from './organizations.rules.js';
import { OrganizationsListMembersResult, OrganizationsUpdateAuthenticationResult } from './organizations.results.js';
import { DeletedResult, ResourceResult } from '../common.results.js';

// Set A 2.9
const OrganizationV1 = lazySchema(() =>
  z.object({ name: v.nstr(), displayName: v.text(), description: v.nstr(), themeId: v.uuid() }),
);
const IdentityProviderInfo = lazySchema(() =>
  z.object({
    id: v.uuid(),
    name: v.nstr(),
    description: v.nstr(),
    isAactive: v.obool(),
    createdDate: v.dateTime().nullable().optional(),
  }),
);
const AuthenticationV1 = lazySchema(() =>
  z.object({
    allowNtlm: v.obool(),
    allowJwt: v.obool(),
    identityProviders: z.array(IdentityProviderInfo).nullable().optional(),
  }),
);

const LIST_ORGANIZATIONS: ListSpec = {
  sort: SORT_ORGANIZATIONS,
  defaultSort: { by: 'DisplayName', direction: 'asc' },
  text: { name: 'o.name', description: 'o.description' },
};
const LIST_MEMBERS: ListSpec = {
  sort: { Type: 'm.type', Name: 'LOWER(m.name)', Email: 'LOWER(m.email)' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'm.name' },
  exact: { type: (value, p) => ({ sql: `m.type = LOWER(:${p})`, params: { [p]: value } }) },
};
const LIST_ORG_RESOURCES: ListSpec = {
  sort: { Name: 'LOWER(r.name)', Description: 'LOWER(r.description)', Url: 'LOWER(r.url)' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'r.name', description: 'r.description' },
};

export const organizationsV1 = [
  defineOp({
    id: 'v1.organizations.create',
    summary: 'Add organization',
    http: { method: 'POST', path: '/api/v1/organizations' },
    permission: 'createSystem',
    objects: { 'body.themeId': 'none' },
    input: { body: OrganizationV1 },
    result: OrganizationResult,
    handler: (ctx, { body }) => createOrganization(ctx, body),
  }),
  defineOp({
    id: 'v1.organizations.list',
    summary: 'List organizations',
    http: { method: 'GET', path: '/api/v1/organizations' },
    permission: 'viewSystem',
    list: LIST_ORGANIZATIONS,
    result: OrganizationResult,
    handler: (ctx, { list }) => pageOfEntity(ctx, Organization, 'o', LIST_ORGANIZATIONS, list, organizationDto),
  }),
  defineOp({
    id: 'v1.organizations.update',
    summary: 'Update organization',
    http: { method: 'PUT', path: '/api/v1/organizations/{id}' },
    permission: 'editSystem',
    objects: { 'body.themeId': 'none', 'params.id': 'organization' },
    input: { params: idParam, body: OrganizationV1 },
    result: OrganizationResult,
    handler: (ctx, { params, body }) => updateOrganization(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.organizations.listMembers',
    summary: 'List members (users and groups) of an organization',
    http: { method: 'GET', path: '/api/v1/organizations/{id}/members' },
    permission: 'viewSystem',
    objects: { 'params.id': 'organization' },
    input: { params: idParam },
    list: LIST_MEMBERS,
    result: OrganizationsListMembersResult,
    handler: (ctx, { params, list }) => listOrganizationMembers(ctx, params.id, LIST_MEMBERS, list),
  }),
  defineOp({
    id: 'v1.organizations.listResources',
    summary: 'List resources of an organization',
    http: { method: 'GET', path: '/api/v1/organizations/{id}/resources' },
    permission: 'viewSystem',
    objects: { 'params.id': 'organization' },
    input: { params: idParam },
    list: LIST_ORG_RESOURCES,
    result: ResourceResult,
    handler: (ctx, { params, list }) => listOrganizationResources(ctx, params.id, LIST_ORG_RESOURCES, list),
  }),
  defineOp({
    id: 'v1.organizations.updateAuthentication',
    summary: 'Update authentication details of an organization',
    http: { method: 'PUT', path: '/api/v1/organizations/{id}/authentication' },
    permission: 'editSystem',
    objects: { 'body.identityProviders[].id': 'identityProvider', 'params.id': 'organization' },
    input: { params: idParam, body: AuthenticationV1 },
    result: OrganizationsUpdateAuthenticationResult,
    handler: (ctx, { params, body }) =>
      setOrganizationAuthentication(ctx, params.id, {
        allowNtlm: body.allowNtlm,
        allowJwt: body.allowJwt,
        // A provider linked but not active for the organization is one its people do not sign in with.
        identityProviderIds: body.identityProviders?.filter((p) => p.isAactive !== false).map((p) => p.id),
      }),
  }),
  defineOp({
    id: 'v1.organizations.delete',
    summary: 'Delete organizations',
    http: { method: 'DELETE', path: '/api/v1/organizations' },
    permission: 'deleteSystem',
    objects: { 'body[]': 'organization' },
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteOrganizations(ctx, body),
  }),
] as const;
