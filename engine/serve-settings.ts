import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SECRET_KEY_FILE_ENV } from './secret-key-file.js';
import { DEFAULT_OUTAGE_WAIT_MS } from './core/limits.js';

/** What `serve` starts with: its flags, over a settings file's (`--settings`), over the defaults. */
export interface ServeSettings {
  dataDir: string;
  port: number;
  host: string;
  ownerEmail: string;
  allowedHosts?: string[];
  secretKeyFile: string;
  /** A PostgreSQL database shared with other servers (issue 26); SQLite in the data folder when absent. */
  database?: string;
  /** This server's name among those sharing the database: its claims on work carry it. */
  nodeId?: string;
  /** How long a clean stop (SIGTERM, Ctrl+C) lets runs under way finish before handing them back. */
  stopGraceMs: number;
  /** How long a run waits for the database to come back, from its first failed call (`--outage-wait-seconds`). */
  outageWaitMs: number;
}

const OPTIONS = {
  'data-dir': { type: 'string' },
  files: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'owner-email': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'secret-key-file': { type: 'string' },
  database: { type: 'string' },
  'node-id': { type: 'string' },
  'stop-grace-seconds': { type: 'string' },
  'outage-wait-seconds': { type: 'string' },
  settings: { type: 'string' },
} as const;

type Flag = Exclude<keyof typeof OPTIONS, 'settings'>;
const FLAGS = Object.keys(OPTIONS).filter((k) => k !== 'settings') as Flag[];
const NODE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A setting that cannot be used, named as the flag that gives it. */
export class SettingError extends Error {}

function settingsFile(path: string): Partial<Record<Flag, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new SettingError(`--settings ${path} could not be read as JSON: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SettingError(`--settings ${path} must hold one JSON object of settings`);
  const unknown = Object.keys(parsed).filter((k) => !(FLAGS as string[]).includes(k));
  if (unknown.length)
    throw new SettingError(`--settings ${path}: unknown setting ${unknown.join(', ')} (known: ${FLAGS.join(', ')})`);
  return parsed as Partial<Record<Flag, unknown>>;
}

export function serveSettings(args: string[], env: NodeJS.ProcessEnv): ServeSettings {
  const { values } = parseArgs({ args, options: OPTIONS });
  const file = values.settings ? settingsFile(values.settings) : {};
  const text = (flag: Flag, fallback?: string): string | undefined => {
    const v = values[flag] ?? file[flag];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string' && typeof v !== 'number') throw new SettingError(`--${flag} must be text`);
    return String(v);
  };
  const dataDir = resolve(text('files') ?? text('data-dir', '.data')!);
  const port = Number(text('port', '5123'));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new SettingError(`--port must be 0..65535, got ${text('port')}`);
  const database = text('database') ?? (env.BROADSHEET_DATABASE_URL || undefined);
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database))
    throw new SettingError('--database must be a PostgreSQL URL such as postgresql://user@host/db');
  const nodeId = text('node-id') ?? (env.BROADSHEET_NODE_ID || (database ? `${hostname()}-${port}` : undefined));
  if (nodeId !== undefined && !NODE_ID.test(nodeId))
    throw new SettingError('--node-id must be 1 to 64 letters, digits, dots, dashes or underscores');
  const hosts = values['allowed-host'] ?? file['allowed-host'];
  if (hosts !== undefined && !(Array.isArray(hosts) && hosts.every((h) => typeof h === 'string')))
    throw new SettingError('--allowed-host must be a list of host names');
  const grace = Number(text('stop-grace-seconds', '10'));
  if (!Number.isFinite(grace) || grace < 0 || grace > 3600)
    throw new SettingError(`--stop-grace-seconds must be 0..3600, got ${text('stop-grace-seconds')}`);
  const outageWait = Number(text('outage-wait-seconds', String(DEFAULT_OUTAGE_WAIT_MS / 1000)));
  if (!Number.isFinite(outageWait) || outageWait < 0 || outageWait > 86_400)
    throw new SettingError(`--outage-wait-seconds must be 0..86400, got ${text('outage-wait-seconds')}`);
  return {
    dataDir,
    port,
    stopGraceMs: Math.round(grace * 1000),
    outageWaitMs: Math.round(outageWait * 1000),
    host: text('host', '127.0.0.1')!,
    ownerEmail: text('owner-email', 'owner@localhost')!,
    allowedHosts: hosts as string[] | undefined,
    secretKeyFile: resolve(text('secret-key-file') ?? env[SECRET_KEY_FILE_ENV] ?? join(dataDir, 'secret.key')),
    database,
    nodeId,
  };
}
