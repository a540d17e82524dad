import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export interface OrganizationRow extends BaseRow {
  name: string | null;
  displayName: string;
  description: string | null;
  themeId: string;
  allowNtlm: boolean;
  allowJwt: boolean;
  serviceAuth: boolean;
  /** Set B's single identity provider; set A links several through organization_identity_providers. */
  identityProviderId: string | null;
}

export const Organization = new EntitySchema<OrganizationRow>({
  name: 'Organization',
  tableName: 'organizations',
  columns: {
    ...baseColumns,
    name: text(),
    displayName: text(false),
    description: text(),
    themeId: ref(false),
    allowNtlm: flag(),
    allowJwt: flag(),
    serviceAuth: flag(true),
    identityProviderId: ref(),
  },
});

boundByOrganization(Organization, (x) => `${x}.id IN (:...orgs)`);
