import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SEALED_PREFIX, SecretBox, type SecretKeyStore } from '../../core/secrets.js';
import { sql } from '../../core/sql.js';
import { Setting } from '../../model/settings.entity.js';

/** The settings row naming the key the database's secrets are sealed with. */
const KEY_CHECK = 'secretsKeyCheck';
/** A value sealed with the key: opening it proves a key is the database's. */
const CHECK_PLAIN = 'broadsheet secrets key check';

interface KeyCheck {
  keyId: string;
  sealed: string;
}

/** Every column that holds a sealed secret, with what it is called to a person re-entering it. */
const SEALED_COLUMNS: { table: string; label: string; named: boolean; columns: string[] }[] = [
  { table: 'mail_servers', label: 'mail server', named: true, columns: ['password'] },
  { table: 'storage_services', label: 'storage service', named: true, columns: ['password', 'privateKey'] },
  { table: 'user_directories', label: 'user directory', named: true, columns: ['password', 'azureClientSecret'] },
  { table: 'identity_providers', label: 'identity provider', named: true, columns: ['clientSecret'] },
  { table: 'task_reports', label: 'task report', named: false, columns: ['fileOpenPassword', 'fileWritePassword'] },
];

/** A stored secret, as a person finds it to enter again. */
export interface StoredSecret {
  what: string;
  sealed: string;
}

/** Each sealed column as one query's part: its place in the list, the row's name, the value. */
const SEALED_PARTS = SEALED_COLUMNS.flatMap((t) => t.columns.map((column) => ({ ...t, column })));

/**
 * The stored secrets, read in one statement (a first start asked each of the seven columns in turn,
 * each a trip through the database's thread, for tables it had just made empty).
 */
async function storedSecrets(db: DataSource, limit = Infinity): Promise<StoredSecret[]> {
  const text = SEALED_PARTS.map(
    (p, part) =>
      `SELECT ${part} AS part, id, ${p.named ? 'name' : 'NULL'} AS name, "${p.column}" AS value FROM ${p.table} WHERE "${p.column}" LIKE ?`,
  ).join(' UNION ALL ');
  const rows = await sql<{ part: number; id: string; name: string | null; value: string }>(
    db,
    `${text} ORDER BY part${Number.isFinite(limit) ? ` LIMIT ${Math.floor(limit)}` : ''}`,
    SEALED_PARTS.map(() => `${SEALED_PREFIX}%`),
  );
  return rows.map((r) => {
    const p = SEALED_PARTS[Number(r.part)];
    return { what: `${p.label} “${r.name ?? r.id}” (${p.column})`, sealed: r.value };
  });
}

async function readCheck(db: DataSource): Promise<KeyCheck | null> {
  const row = await db.getRepository(Setting).findOneBy({ key: KEY_CHECK });
  const v = row?.value as Partial<KeyCheck> | undefined;
  return v && typeof v.keyId === 'string' && typeof v.sealed === 'string' ? (v as KeyCheck) : null;
}

/** Records the key's check once: servers starting together keep the first one written. */
async function recordCheck(db: DataSource, box: SecretBox, now: Date): Promise<KeyCheck> {
  const check: KeyCheck = { keyId: box.keyId(), sealed: box.seal(CHECK_PLAIN) };
  await db
    .createQueryBuilder()
    .insert()
    .into(Setting)
    .values({ key: KEY_CHECK, value: check, modifiedDate: now })
    .orIgnore()
    .execute();
  return (await readCheck(db)) ?? check;
}

export interface OpenedSecrets {
  box: SecretBox;
  /** Stored secrets this key does not open (a data folder restored without its key): to enter again. */
  toReenter: string[];
}

/**
 * Opens the secrets key and proves it is the one the database's secrets are sealed with. The
 * database records a check value sealed with its key. A key that does not open it (another
 * server's, a data folder copied without its key) is refused before anything is sealed with it, or,
 * where `startAnyway` (the desktop: no one can hand it a key file), the stored secrets it cannot open
 * are listed to be entered again. A new key is made only for a database holding no secret, and the
 * key store never replaces a key it already has.
 */
export async function openSecrets(
  db: DataSource,
  store: SecretKeyStore,
  o: { now: Date; startAnyway: boolean },
): Promise<OpenedSecrets> {
  const where = store.where ?? 'the secrets key';
  // The database first, the key file second: a server starting beside this one saves its key
  // before it records the check, so a check read here means its key file was already there.
  let check = await readCheck(db);
  const sample = check ? [] : await storedSecrets(db, 1);
  let key = await store.load();
  if (!key) {
    if ((check || sample.length) && !o.startAnyway)
      throw new Error(
        `No secrets key was found (${where}), but this database's stored passwords are sealed with key ${check?.keyId ?? 'of another install'}. ` +
          `Start with --secret-key-file naming the key the other servers (or this data folder) use; no new key was made.`,
      );
    const made = randomBytes(32);
    await store.save(made);
    // Servers starting together on one shared key file: the key that was kept is the one to use.
    key = (await store.load()) ?? made;
  }
  const box = SecretBox.of(key);
  if (!check && sample.every((s) => box.opens(s.sealed))) check = await recordCheck(db, box, o.now);
  if (check && box.opens(check.sealed)) return { box, toReenter: [] };
  if (!o.startAnyway)
    throw new Error(
      `The secrets key (${where}, key ${box.keyId()}) does not open this database's stored passwords, sealed with key ${check?.keyId ?? 'of another install'}. ` +
        `Start this server with --secret-key-file naming the key file the other servers use (or the one this data folder was made with); nothing was changed.`,
    );
  const unopened = (await storedSecrets(db)).filter((s) => !box.opens(s.sealed));
  // This key is the database's from now on (what it seals from here opens at the next start, on the
  // desktop and under `serve` alike); the secrets it cannot open are said once, now, to be entered again.
  await db.getRepository(Setting).delete({ key: KEY_CHECK });
  await recordCheck(db, box, o.now);
  return { box, toReenter: unopened.map((s) => s.what) };
}
