/**
 * Where the cloud drives' APIs live. Only these hosts are reached for them (with the company's own
 * SharePoint site named by its address); tests point them at a fake of each API on loopback.
 */
export interface CloudEndpoints {
  /** Microsoft's identity platform (OAuth 2.0): `{login}/{tenant}/oauth2/v2.0/authorize` and `/token`. */
  microsoftLogin: string;
  /** Microsoft Graph, version 1.0: OneDrive and SharePoint document libraries. */
  graph: string;
  /** Google's sign-in page: `{googleAccounts}/o/oauth2/v2/auth`. */
  googleAccounts: string;
  /** Google's token endpoint: `{googleOAuth}/token`. */
  googleOAuth: string;
  /** Google's APIs: Drive v3 at `/drive/v3`, its uploads at `/upload/drive/v3`. */
  googleApis: string;
  /** Dropbox's sign-in page: `{dropboxWeb}/oauth2/authorize`. */
  dropboxWeb: string;
  /** Dropbox's RPC endpoints and token endpoint: `/2/…`, `/oauth2/token`. */
  dropboxApi: string;
  /** Dropbox's content endpoints (uploads): `/2/files/upload…`. */
  dropboxContent: string;
}

export const CLOUD_ENDPOINTS: CloudEndpoints = {
  microsoftLogin: 'https://login.microsoftonline.com',
  graph: 'https://graph.microsoft.com/v1.0',
  googleAccounts: 'https://accounts.google.com',
  googleOAuth: 'https://oauth2.googleapis.com',
  googleApis: 'https://www.googleapis.com',
  dropboxWeb: 'https://www.dropbox.com',
  dropboxApi: 'https://api.dropboxapi.com',
  dropboxContent: 'https://content.dropboxapi.com',
};
