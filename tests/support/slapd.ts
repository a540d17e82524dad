// Debian's OpenLDAP server on loopback, for directory synchronization tests: a fresh database in a
// temporary folder, filled offline with slapadd (fast for thousands of entries), then served by
// slapd in the foreground until closed. Changes during a test go through ldapts as the root DN.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';

export const BASE_DN = 'dc=example,dc=com';
export const ADMIN_DN = `cn=admin,${BASE_DN}`;
export const ADMIN_PASSWORD = 'directory-secret';

/** slapd and slapadd live in /usr/sbin, which a user's PATH may leave out. */
const sbin = (name: string) => (existsSync(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : name);

export interface Person {
  uid: string;
  givenName: string;
  sn: string;
  mail: string;
  /** Stored as given (slapd compares a clear userPassword on bind); none means no one binds as them. */
  password?: string;
}

export interface TestSlapd {
  port: number;
  /** Runs `fn` with a client bound as the root DN (add, modify, delete entries). */
  admin<T>(fn: (c: Client) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const sock = connect(port, '127.0.0.1');
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('error', () => resolve(false));
  });

export const personDn = (uid: string) => `uid=${uid},ou=people,${BASE_DN}`;

function ldif(people: Person[], groups: { cn: string; members: string[] }[]): string {
  const entries = [
    `dn: ${BASE_DN}\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: example`,
    `dn: ou=people,${BASE_DN}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${BASE_DN}\nobjectClass: organizationalUnit\nou: groups`,
    ...people.map(
      (p) =>
        `dn: ${personDn(p.uid)}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.givenName} ${p.sn}\ngivenName: ${p.givenName}\nsn: ${p.sn}\nmail: ${p.mail}${p.password ? `\nuserPassword: ${p.password}` : ''}`,
    ),
    ...groups.map(
      (g) =>
        `dn: cn=${g.cn},ou=groups,${BASE_DN}\nobjectClass: groupOfNames\ncn: ${g.cn}\n${g.members.map((uid) => `member: ${personDn(uid)}`).join('\n')}`,
    ),
  ];
  return `${entries.join('\n\n')}\n`;
}

/** Starts slapd on a free loopback port holding the people and groups given. */
export async function startSlapd(people: Person[], groups: { cn: string; members: string[] }[]): Promise<TestSlapd> {
  const dir = mkdtempSync(join(tmpdir(), 'bs-slapd-'));
  mkdirSync(join(dir, 'data'));
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      ...['core', 'cosine', 'nis', 'inetorgperson'].map((s) => `include /etc/ldap/schema/${s}.schema`),
      `pidfile ${join(dir, 'slapd.pid')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      'maxsize 104857600',
      `suffix "${BASE_DN}"`,
      `rootdn "${ADMIN_DN}"`,
      `rootpw ${ADMIN_PASSWORD}`,
      `directory ${join(dir, 'data')}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'data.ldif'), ldif(people, groups));
  const load = spawnSync(sbin('slapadd'), ['-q', '-f', conf, '-l', join(dir, 'data.ldif')], { encoding: 'utf8' });
  if (load.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`slapadd failed: ${load.stderr}`);
  }
  // slapd cannot listen on port 0 and say which port it got: a free port is asked for, and should
  // another process take it before slapd binds, slapd exits and the next free port is tried.
  let port = 0;
  let proc: ChildProcess | null = null;
  for (let attempt = 0; attempt < 5 && !proc; attempt++) {
    port = await freePort();
    const started: ChildProcess = spawn(sbin('slapd'), ['-f', conf, '-h', `ldap://127.0.0.1:${port}/`, '-d', '0'], {
      stdio: 'ignore',
    });
    const t0 = Date.now();
    while (!(await reachable(port)) && started.exitCode === null) {
      if (Date.now() - t0 > 30_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (started.exitCode === null && (await reachable(port))) proc = started;
    else started.kill('SIGKILL');
  }
  if (!proc) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error('slapd did not start');
  }
  const running = proc;
  return {
    port,
    async admin(fn) {
      const c = new Client({ url: `ldap://127.0.0.1:${port}` });
      await c.bind(ADMIN_DN, ADMIN_PASSWORD);
      try {
        return await fn(c);
      } finally {
        await c.unbind();
      }
    },
    async close() {
      const exited = new Promise((r) => running.once('exit', r));
      // Its folder goes with it, so nothing needs flushing: killed at once, and its exit waited on.
      running.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
