import { MISSING_MODULE } from '../../core/errors.js';

// The `kerberos` addon is optional: npm skips it where its native build cannot run (no libkrb5-dev
// on Linux, no C++ build tools on Windows). The part Windows sign-in uses is declared here, and the
// module is loaded by a name the type checker does not follow, so neither the build nor the start
// needs it; where it is missing, Windows sign-in says so in words.

export interface KerberosServer {
  step(token: string): Promise<string>;
  contextComplete: boolean;
  username: string;
  response: string;
}

export interface KerberosModule {
  initializeServer(service: string): Promise<KerberosServer>;
}

const MODULE_NAME = 'kerberos';

/** The addon, or an error saying what installs it. */
export async function loadKerberos(): Promise<KerberosModule> {
  try {
    const mod = (await import(MODULE_NAME)) as KerberosModule & { default?: KerberosModule };
    return mod.default ?? mod;
  } catch (e) {
    throw new Error(
      `Windows sign-in needs the kerberos module, ${MISSING_MODULE}: on Debian or Ubuntu run ` +
        '`apt-get install libkrb5-dev` then `npm ci`; on Windows install the C++ build tools then `npm ci` ' +
        `(${(e as Error).message.split('\n')[0]})`,
    );
  }
}
