// A Kerberos realm on loopback for the Windows sign-in tests: Debian's MIT krb5kdc with a database
// of its own in a temporary folder, a service key for HTTP/localhost in a keytab, and people with
// passwords. `kinit` puts a person's ticket in a credentials cache a browser (or a client) then uses.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

export interface Kdc {
  realm: string;
  /** The keytab holding HTTP/localhost's key: the server's KRB5_KTNAME. */
  keytab: string;
  /** What a Kerberos program needs in its environment: the realm's krb5.conf. */
  env: { KRB5_CONFIG: string };
  /** The realm's folder (removed at close): a server's replay cache goes here (KRB5RCACHEDIR). */
  dir: string;
  /** Adds a person with a password. */
  addPerson(name: string, password: string): void;
  /** Takes the person's ticket into a credentials cache of their own; answers its KRB5CCNAME. */
  kinit(name: string, password: string): string;
  close(): Promise<void>;
}

/** A free loopback port, from the system's own listen(0) (krb5kdc cannot be told to take port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * The server accepts tickets through the optional module `kerberos`, built as it is installed from
 * Debian's libkrb5-dev. Installed before that package, npm leaves it out without a word, and every
 * sign-in then ends on the setup problem page: said here at once, not after a browser's timeouts.
 */
function kerberosModuleInstalled() {
  try {
    createRequire(__filename).resolve('kerberos');
  } catch {
    throw new Error(
      'The optional module "kerberos" is not installed: install Debian\'s libkrb5-dev, then run `npm ci` again.',
    );
  }
}

export async function startKdc(realm = 'BROADSHEET.TEST'): Promise<Kdc> {
  kerberosModuleInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'bs-kdc-'));
  const port = await freePort();
  const krb5Conf = join(dir, 'krb5.conf');
  const kdcConf = join(dir, 'kdc.conf');
  writeFileSync(
    krb5Conf,
    `[libdefaults]
  default_realm = ${realm}
  dns_lookup_realm = false
  dns_lookup_kdc = false
  rdns = false
  dns_canonicalize_hostname = false
  udp_preference_limit = 1
[realms]
  ${realm} = {
    kdc = 127.0.0.1:${port}
    admin_server = 127.0.0.1:${port + 1}
  }
[domain_realm]
  localhost = ${realm}
`,
  );
  writeFileSync(
    kdcConf,
    `[kdcdefaults]
  kdc_ports = ${port}
  kdc_tcp_ports = ${port}
[realms]
  ${realm} = {
    database_name = ${join(dir, 'principal')}
    key_stash_file = ${join(dir, 'stash')}
    acl_file = ${join(dir, 'kadm5.acl')}
    max_life = 1h
  }
[logging]
  kdc = FILE:${join(dir, 'kdc.log')}
`,
  );
  const env = { ...process.env, KRB5_CONFIG: krb5Conf, KRB5_KDC_PROFILE: kdcConf };
  const run = (cmd: string, args: string[], input?: string) =>
    execFileSync(cmd, args, { env, input, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'] });
  run('/usr/sbin/kdb5_util', ['create', '-s', '-r', realm, '-P', 'master-password-of-the-test-kdc']);
  const admin = (query: string) => run('/usr/sbin/kadmin.local', ['-r', realm, '-q', query]);
  const keytab = join(dir, 'http.keytab');
  admin('addprinc -randkey HTTP/localhost');
  admin(`ktadd -k ${keytab} HTTP/localhost`);
  const kdc: ChildProcess = spawn('/usr/sbin/krb5kdc', ['-n', '-r', realm], { env, stdio: 'ignore' });
  // Ready once it answers on its port (kinit of an unknown name answers quickly when it does).
  for (let i = 0; ; i++) {
    const ready = await new Promise<boolean>((resolve) => {
      const probe = spawn('kinit', ['-V', `nobody@${realm}`], { env, stdio: ['pipe', 'ignore', 'pipe'] });
      let err = '';
      probe.stderr!.on('data', (b: Buffer) => (err += b.toString()));
      // kinit may exit before it reads a password (no KDC yet): the write's EPIPE is that answer, not a fault.
      probe.stdin!.on('error', () => undefined);
      probe.stdin!.end('x\n');
      probe.on('exit', () => resolve(/not found in Kerberos database|Client .* not found/.test(err)));
    });
    if (ready) break;
    if (i > 100) throw new Error('the test KDC did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    realm,
    keytab,
    dir,
    env: { KRB5_CONFIG: krb5Conf },
    addPerson: (name, password) => admin(`addprinc -pw ${password} ${name}`),
    kinit(name, password) {
      const cache = `FILE:${join(dir, `cc-${name}`)}`;
      execFileSync('kinit', [`${name}@${realm}`], {
        env: { ...env, KRB5CCNAME: cache },
        input: `${password}\n`,
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      return cache;
    },
    async close() {
      kdc.kill();
      await new Promise((r) => (kdc.exitCode === null ? kdc.once('exit', r) : r(null)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
