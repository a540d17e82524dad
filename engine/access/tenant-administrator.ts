// Who stands above every role and organization wall: the tenant's owner and its administrators.
// One definition, asked everywhere (a user's row or a caller's principal alike), so a third kind
// of administrator would be one change here.

/** Whether this user or caller is the tenant owner or a tenant administrator. */
export const isTenantAdministrator = (p: { isTenantOwner: boolean; isTenantAdmin: boolean }) =>
  p.isTenantOwner || p.isTenantAdmin;
