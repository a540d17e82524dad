import type { EngineServices } from '../../ops/context.js';
import { Setting } from '../../model/settings.entity.js';

/** Known settings with their defaults. */
export const SETTING_DEFAULTS = {
  authenticationMethods: { jwtAuth: false, ntlmAuth: false },
  /** Set when the owner has finished the first-run form (name, e-mail, password). */
  setupComplete: false,
  /** Let the HTTP server listen beyond loopback (the user turns it on). */
  lanAccess: false,
  /** The SAML service provider's key (sealed) and certificate, made on first need (sso/sp-keys.ts). */
  samlServiceProvider: null as null | { key: string; cert: string },
  /** The app registered at Microsoft for OneDrive and SharePoint storage: its secret sealed. */
  microsoftApp: null as null | { clientId: string; tenant: string; clientSecret: string | null },
  /** The OAuth client registered at Google for Google Drive storage: its secret sealed. */
  googleApp: null as null | { clientId: string; clientSecret: string | null },
  /** The app registered at Dropbox (its app key) for Dropbox storage: its secret, if any, sealed. */
  dropboxApp: null as null | { clientId: string; clientSecret: string | null },
};
export type SettingKey = keyof typeof SETTING_DEFAULTS;

export async function readSetting<K extends SettingKey>(
  s: EngineServices,
  key: K,
): Promise<(typeof SETTING_DEFAULTS)[K]> {
  const row = await s.db.getRepository(Setting).findOneBy({ key });
  return (row ? row.value : SETTING_DEFAULTS[key]) as (typeof SETTING_DEFAULTS)[K];
}

export async function writeSetting<K extends SettingKey>(
  s: EngineServices,
  key: K,
  value: (typeof SETTING_DEFAULTS)[K],
) {
  await s.db.getRepository(Setting).save({ key, value, modifiedDate: s.now() });
  return value;
}
