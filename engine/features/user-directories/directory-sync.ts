import { In, type EntityManager } from 'typeorm';
import type { JobKernel, JobWorker } from '../../core/jobs/job-kernel.js';
import { claimingJobKernel, type NodeLease } from '../../core/jobs/table-claims.js';
import { oldestOnePer } from '../../core/jobs/oldest-one-per.js';
import { UNCLAIMED, type RowPatch } from '../../core/jobs/claims.js';
import type { EngineServices } from '../../ops/context.js';
import { newBase } from '../../core/entity-base.js';
import { Group, type GroupRow } from '../../model/groups.entity.js';
import { User, UserGroup, UserOrganization, UserRole, type UserRow } from '../../model/users.entity.js';
import { Session } from '../../model/sessions.entity.js';
import { Outbox, type OutboxRow } from '../../model/mail.entity.js';
import { defaultMailServer } from '../mail/mail-servers.rules.js';
import { plainMessage } from '../mail/plain-message.js';
import { UserDirectory, type UserDirectoryRow } from '../../model/user-directories.entity.js';
import { DirectorySync, type DirectorySyncRow } from '../../model/directory-syncs.entity.js';
import {
  DirectoryProblem,
  directorySettings,
  readDirectory,
  type DirectoryContents,
  type DirectoryPerson,
} from './directory-reader.js';
import type { WorkerModule } from '../../ops/worker-module.js';

// Synchronizing a user directory: people become users of the directory's organization (with its
// default role), changes reach them, people gone from the directory are deactivated (never
// deleted: what they own stays), and the directory's groups become groups with the same members.
// The directory is read before anything is written, then everything is written in one transaction:
// a sync that fails halfway changes nothing.

const CHUNK = 200;
/** A log keeps the first lines about single people: a thousand "skipped" lines help nobody. */
const DETAIL_LINES = 200;

type SyncServices = Pick<
  EngineServices,
  'db' | 'write' | 'guardedWrite' | 'now' | 'secrets' | 'log' | 'outbox' | 'address' | 'peers'
>;

interface Counts {
  created: number;
  updated: number;
  deactivated: number;
  groups: number;
}

class SyncLog {
  private readonly lines: string[] = [];
  private details = 0;
  constructor(private readonly now: () => Date) {}
  line(text: string) {
    this.lines.push(`${this.now().toISOString()} ${text}`);
  }
  detail(text: string) {
    if (++this.details <= DETAIL_LINES) this.line(text);
    else if (this.details === DETAIL_LINES + 1) this.line('… further lines about single people are left out');
  }
  toString() {
    return this.lines.join('\n');
  }
}

/** A sync cut off by a crash or a dead engine fails, saying so: the next slot, or a person, starts another. */
const INTERRUPTED = 'Interrupted: the app stopped during the synchronization';

/**
 * Directory synchronizations on the job kernel: a scheduled slot is a queued row (keyed by
 * directory and slot, so it syncs once whatever the number of engines), claimed and run by one
 * engine; a manual one is inserted already claimed and run at once. One directory syncs one at a time.
 */
export class DirectorySyncs implements JobWorker<DirectorySyncRow>, WorkerModule {
  readonly name = 'directory syncs';
  readonly kernel: JobKernel<DirectorySyncRow>;

  constructor(
    private readonly s: SyncServices,
    node: NodeLease,
  ) {
    this.kernel = claimingJobKernel(
      s,
      {
        entity: DirectorySync,
        // One directory syncs one at a time, whichever server takes or asks for its syncs.
        statuses: { waiting: ['queued'], active: 'running', oneAtATime: { column: 'directoryId', when: 'TRUE' } },
      },
      this,
      { ...node, name: 'Directory syncs', concurrency: 1 },
    );
  }

  start(): Promise<number> {
    return this.kernel.start();
  }

  wake(): void {
    this.kernel.nudge();
    this.s.peers?.nudge('syncs');
  }

  waiting(): DirectorySyncRow['status'] {
    return 'queued';
  }

  /** Queued syncs, oldest first, one per directory, none of a directory syncing now (on any engine). */
  ready(limit: number): Promise<DirectorySyncRow[]> {
    return oldestOnePer(this.s.db, DirectorySync, {
      key: 'directoryId',
      oldest: 'createdDate',
      waiting: 'queued',
      running: 'running',
      limit,
    });
  }

  async run(row: DirectorySyncRow): Promise<void> {
    const done = await runSync(this.s, row);
    if (!(await this.kernel.store.settle(row.id, done))) return;
    await this.s.write(() =>
      this.s.db
        .getRepository(UserDirectory)
        .update(row.directoryId, { syncStatus: done.status === 'completed' ? 'Completed' : 'Failed' }),
    );
  }

  async recover(row: DirectorySyncRow): Promise<void> {
    const patch = {
      status: 'failed' as const,
      message: INTERRUPTED,
      endedAt: this.s.now(),
      modifiedDate: this.s.now(),
    };
    if (await this.kernel.store.takeOver(row, patch))
      await this.s.write(() =>
        this.s.db.getRepository(UserDirectory).update(row.directoryId, { syncStatus: 'Failed' }),
      );
  }

  /** Whether a directory has a sync queued or running, here or on another engine. */
  isSyncing(directoryId: string): Promise<boolean> {
    return this.s.db.getRepository(DirectorySync).existsBy({ directoryId, status: In(['queued', 'running']) });
  }

  /**
   * Synchronizes a directory now and answers its record (failed ones too: the record says why), or
   * null when one of it is queued or running already.
   */
  async syncNow(directoryId: string): Promise<DirectorySyncRow | null> {
    // Refused in the insert itself when one is queued or running: two asked at once make one.
    const row = await this.kernel.store.insertClaimed(newSync(directoryId, 'manual', null, this.s.now()));
    if (!row) return null;
    await this.kernel.adopt(row);
    return this.s.db.getRepository(DirectorySync).findOneByOrFail({ id: row.id });
  }

  close(): Promise<void> {
    return this.kernel.close(false);
  }
}

/** A sync's record before it runs. */
export function newSync(
  directoryId: string,
  trigger: DirectorySyncRow['trigger'],
  scheduledFor: Date | null,
  now: Date,
): DirectorySyncRow {
  return {
    ...newBase(now),
    ...UNCLAIMED,
    directoryId,
    trigger,
    scheduledFor,
    status: 'queued',
    endedAt: null,
    created: 0,
    updated: 0,
    deactivated: 0,
    groups: 0,
    field: null,
    message: null,
    log: '',
  };
}

/** Reads the directory, then writes what it holds in one transaction; answers the outcome to record. */
async function runSync(s: SyncServices, run: DirectorySyncRow): Promise<RowPatch<DirectorySyncRow>> {
  const { directoryId, trigger } = run;
  const dir = await s.db.getRepository(UserDirectory).findOneByOrFail({ id: directoryId });
  const started = s.now();
  await s.write(() =>
    s.db.getRepository(UserDirectory).update(dir.id, { lastStartedSync: started, syncStatus: 'Running' }),
  );
  const log = new SyncLog(s.now);
  log.line(
    `${trigger === 'manual' ? 'Synchronization asked for' : 'Scheduled synchronization'}: ${dir.type} directory "${dir.name}" at ${dir.hostName ?? '(no host)'}:${dir.port || 389}`,
  );
  let outcome: { status: 'completed' | 'failed'; field: string | null; message: string | null } & Counts;
  try {
    const contents = await readDirectory(directorySettings(dir, (sealed) => s.secrets.open(sealed)));
    log.line(`Read ${contents.people.length} people and ${contents.groups.length} groups`);
    const welcome = dir.sendNotification ? await welcomeMail(s, dir, log) : null;
    const counts = await s.write(() => s.db.transaction((m) => applyContents(m, dir, contents, started, log, welcome)));
    if (welcome) s.outbox.wake();
    log.line(
      `Done: ${counts.created} created, ${counts.updated} updated, ${counts.deactivated} deactivated, ${counts.groups} groups`,
    );
    outcome = { status: 'completed', field: null, message: null, ...counts };
  } catch (e) {
    const problem = e instanceof DirectoryProblem ? e : null;
    if (!problem) s.log.error('A directory synchronization failed', { directoryId, error: (e as Error).message });
    const message = problem?.message ?? `The synchronization failed: ${(e as Error).message}`;
    log.line(`Failed: ${message}`);
    outcome = {
      status: 'failed',
      field: problem?.field ?? null,
      message,
      created: 0,
      updated: 0,
      deactivated: 0,
      groups: 0,
    };
  }
  return { ...outcome, endedAt: s.now(), modifiedDate: s.now(), log: log.toString() };
}

const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

/** Writes the welcome of a person the directory brings (an outbox row, or null without an address). */
type Welcome = (user: UserRow) => OutboxRow | null;

/**
 * With the directory's "send notification" on, people it brings hear how to sign in: the mail is
 * written in the same transaction as their user, so a sync that fails sends nothing and one that
 * lands cannot lose it. Without a mail server there is no one to send it: the log says so.
 */
async function welcomeMail(s: SyncServices, dir: UserDirectoryRow, log: SyncLog): Promise<Welcome | null> {
  const server = await defaultMailServer(s);
  if (!server) {
    log.line('Welcome mails are not sent: no mail server is set up');
    return null;
  }
  const where = s.address.http ?? 'the Broadsheet address your administrator gives you';
  return (user) =>
    user.email && user.isActive
      ? plainMessage(server, user.createdDate, {
          requestId: null,
          to: [user.email],
          subject: 'Your Broadsheet account',
          text: `Hello ${user.firstName},\n\nYou can now use Broadsheet, where reports are made and shared: your account comes from the directory "${dir.name}".\n\nSign in at ${where} with ${user.email} and your directory password.`,
        })
      : null;
}

async function applyContents(
  m: EntityManager,
  dir: UserDirectoryRow,
  contents: DirectoryContents,
  now: Date,
  log: SyncLog,
  welcome: Welcome | null,
): Promise<Counts> {
  const counts: Counts = { created: 0, updated: 0, deactivated: 0, groups: 0 };
  const users = m.getRepository(User);
  const mine = new Map((await users.findBy({ directoryId: dir.id })).map((u) => [u.directoryKey ?? '', u]));
  const emails = [...new Set(contents.people.map((p) => p.email).filter((e): e is string => !!e))];
  const byEmail = new Map<string, UserRow>();
  for (let i = 0; i < emails.length; i += CHUNK)
    for (const u of await users.findBy({ email: In(emails.slice(i, i + CHUNK)) })) byEmail.set(u.email ?? '', u);
  const allUsers = (await m.getRepository(Group).findOneBy({ name: 'All users', type: 'system' }))?.id ?? null;
  const account = (p: DirectoryPerson) => (dir.prefix?.trim() ? `${dir.prefix.trim()}\\${p.key}` : p.key);

  const fresh: UserRow[] = [];
  const synced = new Map<string, string>(); // directory key → user id
  for (const p of contents.people) {
    if (synced.has(p.key)) continue;
    const known = mine.get(p.key);
    const holder = p.email ? byEmail.get(p.email) : undefined;
    if (known) {
      synced.set(p.key, known.id);
      const email = holder && holder.id !== known.id ? known.email : p.email;
      if (email !== p.email) log.detail(`${fullName(p)}: e-mail ${p.email} kept off, another user has it`);
      const next = {
        firstName: p.firstName,
        lastName: p.lastName,
        email,
        isActive: !p.disabled,
        domainAccount: account(p),
      };
      if (
        next.firstName !== known.firstName ||
        next.lastName !== known.lastName ||
        next.email !== known.email ||
        next.isActive !== known.isActive ||
        next.domainAccount !== known.domainAccount
      ) {
        await users.update(known.id, { ...next, modifiedDate: now });
        if (!next.isActive && known.isActive) await m.getRepository(Session).delete({ userId: known.id });
        counts.updated++;
        log.detail(
          `${fullName(p)}: updated${known.email !== next.email ? ` (e-mail ${known.email ?? 'none'} → ${next.email ?? 'none'})` : ''}`,
        );
      }
    } else if (holder && !holder.directoryId) {
      // Someone added by hand before the directory was set up: the directory takes them over.
      await users.update(holder.id, {
        directoryId: dir.id,
        directoryKey: p.key,
        domainAccount: account(p),
        modifiedDate: now,
      });
      synced.set(p.key, holder.id);
      counts.updated++;
      log.detail(`${fullName(p)}: linked to the existing user with ${p.email}`);
    } else if (holder) {
      log.detail(`${fullName(p)}: skipped, ${p.email} belongs to a user of another directory`);
    } else {
      const row: UserRow = {
        ...newBase(now),
        kind: 'user',
        firstName: p.firstName || p.key,
        lastName: p.lastName,
        email: p.email,
        passwordHash: null,
        domainAccount: account(p),
        isActive: !p.disabled,
        sendNotification: dir.sendNotification,
        isoLanguage: null,
        isTenantOwner: false,
        isTenantAdmin: false,
        createdBy: null,
        modifiedBy: null,
        directoryId: dir.id,
        directoryKey: p.key,
      };
      fresh.push(row);
      synced.set(p.key, row.id);
      if (p.email) byEmail.set(p.email, row);
    }
  }
  let welcomed = 0;
  for (let i = 0; i < fresh.length; i += CHUNK) {
    const part = fresh.slice(i, i + CHUNK);
    await users.insert(part);
    await m.getRepository(UserOrganization).insert(part.map((u) => ({ userId: u.id, targetId: dir.organizationId })));
    if (dir.defaultUserRole)
      await m.getRepository(UserRole).insert(part.map((u) => ({ userId: u.id, targetId: dir.defaultUserRole! })));
    if (allUsers) await m.getRepository(UserGroup).insert(part.map((u) => ({ userId: u.id, targetId: allUsers })));
    const mails = welcome ? part.map(welcome).filter((x): x is OutboxRow => !!x) : [];
    if (mails.length) await m.getRepository(Outbox).insert(mails);
    welcomed += mails.length;
  }
  if (welcome) log.line(`Welcome mails queued: ${welcomed}`);
  counts.created = fresh.length;

  // Gone from the directory: deactivated, their sessions ended.
  const gone = [...mine.values()].filter((u) => !synced.has(u.directoryKey ?? '') && u.isActive);
  for (let i = 0; i < gone.length; i += CHUNK) {
    const ids = gone.slice(i, i + CHUNK).map((u) => u.id);
    await users.update({ id: In(ids) }, { isActive: false, modifiedDate: now });
    await m.getRepository(Session).delete({ userId: In(ids) });
  }
  for (const u of gone) log.detail(`${fullName(u)}: deactivated, no longer in the directory`);
  counts.deactivated = gone.length;

  counts.groups = await applyGroups(m, dir, contents, synced, now, log);
  return counts;
}

/** The directory's groups as groups of its organization, with exactly the members the directory names. */
async function applyGroups(
  m: EntityManager,
  dir: UserDirectoryRow,
  contents: DirectoryContents,
  synced: Map<string, string>,
  now: Date,
  log: SyncLog,
): Promise<number> {
  const groups = m.getRepository(Group);
  const mine = new Map((await groups.findBy({ directoryId: dir.id })).map((g) => [g.directoryKey ?? '', g]));
  const taken = new Set(
    (await groups.find({ select: { id: true, name: true, directoryId: true } }))
      .filter((g) => g.directoryId !== dir.id)
      .map((g) => g.name.toLowerCase()),
  );
  // Members are named by DN (groupOfNames, AD) or by uid (posixGroup).
  const byDn = new Map(contents.people.map((p) => [p.dn, synced.get(p.key)]));
  const seen = new Set<string>();
  for (const d of contents.groups) {
    const name = taken.has(d.name.toLowerCase()) ? `${d.name} (${dir.name})` : d.name;
    let group = mine.get(d.key);
    if (!group) {
      group = {
        ...newBase(now),
        name,
        description: `From the directory "${dir.name}"`,
        organizationId: dir.organizationId,
        isActive: true,
        type: 'custom',
        directoryId: dir.id,
        directoryKey: d.key,
      } as GroupRow;
      await groups.insert(group);
      log.detail(`Group ${name}: created`);
    } else if (group.name !== name || !group.isActive) {
      await groups.update(group.id, { name, isActive: true, modifiedDate: now });
    }
    seen.add(d.key);
    const members = [...new Set(d.members.map((x) => byDn.get(x) ?? synced.get(x)).filter((id): id is string => !!id))];
    await m.getRepository(UserGroup).delete({ targetId: group.id });
    for (let i = 0; i < members.length; i += CHUNK)
      await m
        .getRepository(UserGroup)
        .insert(members.slice(i, i + CHUNK).map((userId) => ({ userId, targetId: group!.id })));
  }
  // A group gone from the directory is kept (tasks may name it) but emptied and made inactive.
  for (const g of mine.values()) {
    if (seen.has(g.directoryKey ?? '') || !g.isActive) continue;
    await groups.update(g.id, { isActive: false, modifiedDate: now });
    await m.getRepository(UserGroup).delete({ targetId: g.id });
    log.detail(`Group ${g.name}: no longer in the directory, emptied and deactivated`);
  }
  return seen.size;
}
