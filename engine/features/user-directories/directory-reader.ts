import { Client, InvalidCredentialsError, type Entry } from 'ldapts';

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
    key: (e) => first(e, 'uid'),
    disabled: () => false,
  },
  ActiveDirectory: {
    people: '(&(objectCategory=person)(objectClass=user))',
    groups: '(objectClass=group)',
    attributes: ['sAMAccountName', 'mail', 'givenName', 'sn', 'cn', 'displayName', 'userAccountControl'],
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

/** Reads every person and group of an LDAP or Active Directory server, page by page. */
export async function readDirectory(s: DirectorySettings): Promise<DirectoryContents> {
  if (s.type !== 'LDAP' && s.type !== 'ActiveDirectory') throw new DirectoryProblem('type', `${s.type} directories are not synchronized by this installation; LDAP and Active Directory are`);
  const dialect = DIALECTS[s.type];
  const client = new Client({ url: directoryUrl(s), timeout: 30_000, connectTimeout: 10_000 });
  try {
    try {
      if (s.userName) await client.bind(s.userName, s.password ?? '');
    } catch (e) {
      if (e instanceof InvalidCredentialsError) throw new DirectoryProblem('password', `The directory refused the sign-in of "${s.userName}": the user name or password is wrong`);
      throw new DirectoryProblem('hostName', `The directory at ${directoryUrl(s)} could not be reached: ${(e as Error).message}`);
    }
    const base = s.baseDn?.trim() || (await namingContext(client));
    const search = async (filter: string, attributes: string[]) => {
      try {
        return (await client.search(base, { scope: 'sub', filter, attributes, paged: { pageSize: PAGE } })).searchEntries;
      } catch (e) {
        throw new DirectoryProblem(filter === dialect.groups ? 'userDirectoryName' : 'filter', `The directory could not be searched under "${base}" with ${filter}: ${(e as Error).message}`);
      }
    };
    const people = (await search(s.filter?.trim() || dialect.people, dialect.attributes)).flatMap((e): DirectoryPerson[] => {
      const key = dialect.key(e);
      if (!key) return [];
      const cn = first(e, 'displayName') ?? first(e, 'cn') ?? key;
      return [{
        key: key.toLowerCase(), dn: e.dn.toLowerCase(), email: first(e, 'mail')?.trim().toLowerCase() || null, disabled: dialect.disabled(e),
        firstName: first(e, 'givenName') ?? cn.split(' ')[0], lastName: first(e, 'sn') ?? cn.split(' ').slice(1).join(' '),
      }];
    });
    const groups = (await search(dialect.groups, ['cn', 'member', 'uniqueMember', 'memberUid'])).map((e) => ({
      key: e.dn.toLowerCase(), name: first(e, 'cn') ?? e.dn,
      members: [...all(e, 'member'), ...all(e, 'uniqueMember'), ...all(e, 'memberUid')].map((m) => m.toLowerCase()),
    }));
    return { people, groups };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

async function namingContext(client: Client): Promise<string> {
  const root = await client.search('', { scope: 'base', filter: '(objectClass=*)', attributes: ['namingContexts'] }).catch(() => null);
  const context = root ? first(root.searchEntries[0] ?? { dn: '' }, 'namingContexts') : null;
  if (!context) throw new DirectoryProblem('userDirectoryName', 'Name the base DN to search: the directory does not announce one');
  return context;
}
