/**
 * Where the cloud drives' APIs live. Only these hosts are reached for them (with the company's own
 * SharePoint site named by its address); tests point them at a fake of each API on loopback.
 */
export interface CloudEndpoints {
  /** Microsoft's identity platform (OAuth 2.0): `{login}/{tenant}/oauth2/v2.0/authorize` and `/token`. */
  microsoftLogin: string;
  /** Microsoft Graph, version 1.0: OneDrive and SharePoint document libraries. */
  graph: string;
}

export const CLOUD_ENDPOINTS: CloudEndpoints = {
  microsoftLogin: 'https://login.microsoftonline.com',
  graph: 'https://graph.microsoft.com/v1.0',
};
