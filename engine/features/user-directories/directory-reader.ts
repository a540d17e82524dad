import type { Client, Entry } from 'ldapts' with { 'resolution-mode': 'import' };
import type { UserDirectoryRow } from '../../model/user-directories.entity.js';

// Reading a user directory: the people and groups it holds, in one shape whatever the server. LDAP
// and Active Directory (over LDAP) are read here with ldapts; Azure AD would be another reader of
// the same interface (Microsoft Graph's /users and /groups), documented in docs/DECISIONS.md.

/** A person as the directory knows them; `key` stays the same when they are renamed. */
export interface DirectoryPerson {
  key: string;
  dn: string;
  firstName: string;
  lastName: string;
  email: string | null;
  /** Active Directory marks disabled accounts; they are kept inactive here too. */
  disabled: boolean;
}

export interface DirectoryGroup {
  key: string;
  name: string;
  /** Members by DN (groupOfNames, AD) or by uid (posixGroup), lowercased. */
  members: string[];
}

export interface DirectoryContents {
  people: DirectoryPerson[];
  groups: DirectoryGroup[];
}

/** What a sync needs of a directory's settings (the password already opened). */
export interface DirectorySettings {
  type: string;
  hostName: string | null;
  port: number | null;
  userName: string | null;
  password: string | null;
  /** The base DN searched; the server's first naming context when not given. */
  baseDn: string | null;
  filter: string | null;
}

/** The settings of a stored directory, its password opened with `open`. */
export function directorySettings(dir: UserDirectoryRow, open: (sealed: string) => string): DirectorySettings {
  return {
    type: dir.type,
    hostName: dir.hostName,
    port: dir.port,
    userName: dir.userName,
    password: dir.password ? open(dir.password) : null,
    baseDn: dir.userDirectoryName,
    filter: dir.filter,
  };
}

/** A failure the person who set up the directory can fix, naming the setting at fault. */
export class DirectoryProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

interface Dialect {
  people: string;
  groups: string;
  attributes: string[];
  /** The attribute `key` is read from, to find one person again at sign-in. */
  keyAttribute: string;
  key(e: Entry): string | null;
  disabled(e: Entry): boolean;
}

const first = (e: Entry, name: string): string | null => {
  const v = e[name];
  const x = Array.isArray(v) ? v[0] : v;
  return x === undefined || x === null ? null : String(x);
};
const all = (e: Entry, name: string): string[] => {
  const v = e[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => String(x));
};

const DIALECTS: Record<'LDAP' | 'ActiveDirectory', Dialect> = {
  LDAP: {
    people: '(objectClass=inetOrgPerson)',
    groups: '(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames)(objectClass=posixGroup))',
    attributes: ['uid', 'mail', 'givenName', 'sn', 'cn'],
    keyAttribute: 'uid',
    key: (e) => first(e, 'uid'),
    disabled: () => false,
  },
  ActiveDirectory: {
    people: '(&(objectCategory=person)(objectClass=user))',
    groups: '(objectClass=group)',
    attributes: ['sAMAccountName', 'mail', 'givenName', 'sn', 'cn', 'displayName', 'userAccountControl'],
    keyAttribute: 'sAMAccountName',
    key: (e) => first(e, 'sAMAccountName'),
    // userAccountControl's ACCOUNTDISABLE bit.
    disabled: (e) => (Number(first(e, 'userAccountControl') ?? 0) & 2) === 2,
  },
};

const PAGE = 500;

/** The URL of a directory: LDAPS on 636, LDAP otherwise; only the host the settings name. */
export function directoryUrl(s: Pick<DirectorySettings, 'hostName' | 'port'>): string {
  if (!s.hostName?.trim()) throw new DirectoryProblem('hostName', 'The directory has no host name');
  const port = s.port || 389;
  const host = s.hostName.includes(':') ? `[${s.hostName}]` : s.hostName;
  return `${port === 636 ? 'ldaps' : 'ldap'}://${host}:${port}`;
}

function dialectOf(s: DirectorySettings): Dialect {
  if (s.type !== 'LDAP' && s.type !== 'ActiveDirectory')
    throw new DirectoryProblem(
      'type',
      `${s.type} directories are not synchronized by this installation; LDAP and Active Directory are`,
    );
  return DIALECTS[s.type];
}

/** A client bound with the directory's own account (anonymous when it names none). */
async function boundClient(s: DirectorySettings, timeout: number): Promise<Client> {
  // ldapts is loaded when a directory is first read, not at start.
  const { Client, InvalidCredentialsError } = await import('ldapts');
  const client = new Client({ url: directoryUrl(s), timeout, connectTimeout: 10_000 });
  try {
    if (s.userName) await client.bind(s.userName, s.password ?? '');
    return client;
  } catch (e) {
    await client.unbind().catch(() => undefined);
    if (e instanceof InvalidCredentialsError)
      throw new DirectoryProblem(
        'password',
        `The directory refused the sign-in of "${s.userName}": the user name or password is wrong`,
      );
    throw new DirectoryProblem(
      'hostName',
      `The directory at ${directoryUrl(s)} could not be reached: ${(e as Error).message}`,
    );
  }
}

/** The people filter: the directory's own when set (parenthesized if written bare), else the dialect's. */
const peopleFilter = (s: DirectorySettings, dialect: Dialect) => {
  const own = s.filter?.trim();
  if (!own) return dialect.people;
  return own.startsWith('(') ? own : `(${own})`;
};

/** Reads every person and group of an LDAP or Active Directory server, page by page. */
export async function readDirectory(s: DirectorySettings): Promise<DirectoryContents> {
  const dialect = dialectOf(s);
  const client = await boundClient(s, 30_000);
  try {
    const base = s.baseDn?.trim() || (await namingContext(client));
    const search = async (filter: string, attributes: string[]) => {
      try {
        return (await client.search(base, { scope: 'sub', filter, attributes, paged: { pageSize: PAGE } }))
          .searchEntries;
      } catch (e) {
        throw new DirectoryProblem(
          filter === dialect.groups ? 'userDirectoryName' : 'filter',
          `The directory could not be searched under "${base}" with ${filter}: ${(e as Error).message}`,
        );
      }
    };
    const people = (await search(peopleFilter(s, dialect), dialect.attributes)).flatMap((e): DirectoryPerson[] => {
      const key = dialect.key(e);
      if (!key) return [];
      const cn = first(e, 'displayName') ?? first(e, 'cn') ?? key;
      return [
        {
          key: key.toLowerCase(),
          dn: e.dn.toLowerCase(),
          email: first(e, 'mail')?.trim().toLowerCase() || null,
          disabled: dialect.disabled(e),
          firstName: first(e, 'givenName') ?? cn.split(' ')[0],
          lastName: first(e, 'sn') ?? cn.split(' ').slice(1).join(' '),
        },
      ];
    });
    const groups = (await search(dialect.groups, ['cn', 'member', 'uniqueMember', 'memberUid'])).map((e) => ({
      key: e.dn.toLowerCase(),
      name: first(e, 'cn') ?? e.dn,
      members: [...all(e, 'member'), ...all(e, 'uniqueMember'), ...all(e, 'memberUid')].map((m) => m.toLowerCase()),
    }));
    return { people, groups };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/**
 * "Test connection": signs in with the directory's own account, finds the base to search, and looks
 * for one person with the people filter. Answers what it found in words, or a DirectoryProblem
 * naming the setting to fix; reads no more than one entry, however large the directory.
 */
export async function testDirectory(s: DirectorySettings): Promise<string> {
  const dialect = dialectOf(s);
  const client = await boundClient(s, 10_000);
  try {
    const base = s.baseDn?.trim() || (await namingContext(client));
    const filter = peopleFilter(s, dialect);
    const found = await client
      .search(base, { scope: 'sub', filter, attributes: ['dn'], sizeLimit: 1 })
      .then((r) => r.searchEntries.length)
      // A size limit reached means there are more: as good as found.
      .catch((e: Error) => {
        if (/size ?limit/i.test(e.name + e.message)) return 1;
        throw new DirectoryProblem(
          'filter',
          `The directory could not be searched under "${base}" with ${filter}: ${e.message}`,
        );
      });
    const who = s.userName ? `as "${s.userName}"` : 'anonymously';
    if (!found)
      throw new DirectoryProblem(
        'filter',
        `Signed in to ${directoryUrl(s)} ${who}, but nobody under "${base}" matches ${filter}`,
      );
    return `Signed in to ${directoryUrl(s)} ${who} and found people under "${base}" with ${filter}`;
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/**
 * Whether `password` is the directory password of the person synchronized under `key`: found with
 * the directory's own account (by the key's attribute, within the same people filter), then bound
 * as themselves. A person no longer found, or found twice, is refused.
 */
export async function verifyDirectoryPassword(s: DirectorySettings, key: string, password: string): Promise<boolean> {
  // An empty password makes an unauthenticated bind, which LDAP servers answer with success
  // (RFC 4513, 5.1.2): it must never count as a sign-in.
  if (!password) return false;
  const dialect = dialectOf(s);
  const { Client, InvalidCredentialsError, escapeFilter } = await import('ldapts');
  const lookup = await boundClient(s, 10_000);
  let dn: string;
  try {
    const base = s.baseDn?.trim() || (await namingContext(lookup));
    const filter = `(&${peopleFilter(s, dialect)}${escapeFilter`(${dialect.keyAttribute}=${key})`})`;
    const found = (await lookup.search(base, { scope: 'sub', filter, attributes: ['dn'], sizeLimit: 2 })).searchEntries;
    if (found.length !== 1) return false;
    dn = found[0].dn;
  } finally {
    await lookup.unbind().catch(() => undefined);
  }
  const person = new Client({ url: directoryUrl(s), timeout: 10_000, connectTimeout: 10_000 });
  try {
    await person.bind(dn, password);
    return true;
  } catch (e) {
    if (e instanceof InvalidCredentialsError) return false;
    throw new DirectoryProblem(
      'hostName',
      `The directory at ${directoryUrl(s)} could not check the password: ${(e as Error).message}`,
    );
  } finally {
    await person.unbind().catch(() => undefined);
  }
}

async function namingContext(client: Client): Promise<string> {
  const root = await client
    .search('', { scope: 'base', filter: '(objectClass=*)', attributes: ['namingContexts'] })
    .catch(() => null);
  const context = root ? first(root.searchEntries[0] ?? { dn: '' }, 'namingContexts') : null;
  if (!context)
    throw new DirectoryProblem('userDirectoryName', 'Name the base DN to search: the directory does not announce one');
  return context;
}
