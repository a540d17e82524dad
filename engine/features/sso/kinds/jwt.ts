import type { ProviderKindSeam } from './kind.js';
import { certificateCheck } from './checks.js';
import { readSetting } from '../../settings/settings.rules.js';

// JWT bearer tokens: an API caller presents a token the provider signed (checked in jwt-bearer.ts);
// no browser sign-in and nothing to sign out of.

export const jwtKind: ProviderKindSeam = {
  kind: 'jwt',
  desktop: false,
  bearer: true,
  serviceProvider: false,
  signOutUrl: async () => null,
  async check(s, p) {
    const on = (await readSetting(s, 'authenticationMethods')).jwtAuth;
    return [
      certificateCheck(p, s.now()),
      on
        ? { what: 'System', ok: true, message: 'JWT sign-in is on for the system' }
        : { what: 'System', ok: false, message: 'JWT sign-in is off for the system (Settings)' },
    ];
  },
};
