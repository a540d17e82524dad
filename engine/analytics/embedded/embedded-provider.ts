import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { badInput, notFound } from '../../core/errors.js';
import { compileExpression, type CompileScope, type Sql } from '../expression/compile.js';
import { ExpressionError } from '../expression/ast.js';
import type { AppMeta, ChartData, ChartDef, FieldMeta, FieldType, FieldValue, Selections } from '../model.js';
import {
  GROUP_KEY,
  type AnalyticsPort,
  type EmbeddedAnalyticsAdmin,
  type ImportProgress,
  type TableData,
} from '../port.js';
import { ColumnarFile, syncFile, warmReader } from './columnar-file.js';
import type { ImportFormat } from '../../core/tabular-rows.js';
import { DEFAULT_IMPORT_BUDGET, type ImportBudget } from './import-budget.js';
import {
  DEFAULT_IMPORT_MEMORY_MB,
  dropSpareImportWorker,
  prepareImportWorker,
  runImportInWorker,
} from './import-runner.js';

const APP_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const CHUNK = 5000;
/** The app's data file: columnar (DuckDB), written once by an import and then only read. */
const DATA_FILE = 'data.duckdb';
/** What an app's data was in before (SQLite): converted the first time the app is read. */
const LEGACY_FILE = 'data.db';
const NEXT_FILE = 'data.next.duckdb';

export type { ImportProgress };

export type { TableData };

/** An expression error as a 400 that points at the position, naming the input field it came from. */
export function expressionFailure(e: unknown, field: string): never {
  if (e instanceof ExpressionError) throw badInput(e.message, [{ field, message: e.message }]);
  throw e;
}

/** Metadata without the name of its data file (kept only while versions are in use). */
function outward(meta: AppMeta): AppMeta {
  if (meta.dataFile === undefined) return meta;
  const { dataFile: _file, ...rest } = meta;
  return rest;
}

/** What an import cut off leaves in an app's folder: its upload, the data file it was writing, metadata never renamed into place. */
const LEFTOVER = /^(upload-.+\.tmp|data\.next\.(db|duckdb)(-wal|-shm|-journal|\.wal)?|.+\.json\.tmp)$/;
/** Leftovers of data being loaded (not of metadata being saved). */
const INTERRUPTED_DATA = /^(upload-.+\.tmp|data\.next\.(db|duckdb))$/;

/**
 * The embedded analytics provider: each app is a folder under apps/ with its rows in a DuckDB file
 * (one table, a column per field: columnar, compressed, aggregated on every core) and its metadata
 * (fields, variables, charts, bookmarks, sheets) in meta.json. Expressions compile to bound SQL;
 * selections become bound WHERE clauses.
 */
export class EmbeddedProvider implements AnalyticsPort, EmbeddedAnalyticsAdmin {
  private readonly open = new Map<string, Promise<ColumnarFile>>();
  private readonly metas = new Map<string, AppMeta>();
  /** The data file each open handle reads (versions: another server may have published a newer one). */
  private readonly openFile = new Map<string, string>();
  private readonly reloadListeners: ((appId: string) => void)[] = [];

  constructor(
    private readonly root: string,
    private readonly importLimits: { budget: ImportBudget; memoryMb: number } = {
      budget: DEFAULT_IMPORT_BUDGET,
      memoryMb: DEFAULT_IMPORT_MEMORY_MB,
    },
    /**
     * Servers sharing the folder: an import publishes a new data file (a version) instead of
     * replacing the one others may be reading, and the metadata is read from its file at each use
     * (another server may have changed it) rather than remembered.
     */
    private readonly shared = false,
  ) {}

  onReload(listener: (appId: string) => void) {
    this.reloadListeners.push(listener);
  }

  private dir(appId: string) {
    if (!APP_ID.test(appId))
      throw badInput(`"${appId.slice(0, 70)}" is not a valid app id`, [
        { field: 'appId', message: 'must be lower-case letters, digits and dashes' },
      ]);
    return join(this.root, appId);
  }

  async listApps(): Promise<AppMeta[]> {
    if (!existsSync(this.root)) return [];
    const names = (await readdir(this.root, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && APP_ID.test(d.name))
      .map((d) => d.name);
    const metas = await Promise.all(names.map((n) => this.meta(n).catch(() => null)));
    return metas.filter((m): m is AppMeta => !!m);
  }

  async removeLeftovers(): Promise<{ files: number; bytes: number; interrupted: string[] }> {
    const removed = { files: 0, bytes: 0, interrupted: [] as string[] };
    if (this.shared || !existsSync(this.root)) return removed;
    const gone = async (path: string) => {
      const info = await stat(path).catch(() => null);
      if (!info) return;
      if (info.isDirectory()) {
        for (const name of await readdir(path)) await gone(join(path, name));
        await rm(path, { recursive: true, force: true });
        return;
      }
      removed.files += 1;
      removed.bytes += info.size;
      await rm(path, { force: true });
    };
    for (const entry of await readdir(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory() || !APP_ID.test(entry.name)) continue;
      const dir = join(this.root, entry.name);
      const names = await readdir(dir);
      // Never named in metadata: a first start or a creation cut off before the app existed.
      if (!names.includes('meta.json')) {
        await gone(dir);
        continue;
      }
      const left = names.filter((name) => LEFTOVER.test(name));
      // Data being written (an import's upload, the next data file) says an import or reload was cut off.
      if (left.some((name) => INTERRUPTED_DATA.test(name))) removed.interrupted.push(entry.name);
      for (const name of left) await gone(join(dir, name));
    }
    return removed;
  }

  async exists(appId: string) {
    return existsSync(join(this.dir(appId), 'meta.json'));
  }

  async createApp(appId: string, name: string, description: string | null = null): Promise<AppMeta> {
    const dir = this.dir(appId);
    if (await this.exists(appId)) return this.meta(appId);
    await mkdir(dir, { recursive: true });
    const meta: AppMeta = {
      appId,
      name,
      description,
      fields: [],
      variables: [],
      charts: [],
      bookmarks: [],
      sheets: [],
      rowCount: 0,
      reloadedAt: null,
      source: null,
    };
    await this.saveMeta(meta);
    return meta;
  }

  async deleteApp(appId: string) {
    const db = this.open.get(appId);
    this.open.delete(appId);
    this.openFile.delete(appId);
    this.metas.delete(appId);
    if (db) await (await db).close();
    await rm(this.dir(appId), { recursive: true, force: true });
  }

  /** The app's metadata as callers see it: which file holds the data is the provider's own business. */
  async meta(appId: string): Promise<AppMeta> {
    return outward(await this.storedMeta(appId));
  }

  private async storedMeta(appId: string): Promise<AppMeta> {
    const cached = this.shared ? undefined : this.metas.get(appId);
    if (cached) return cached;
    let text: string;
    try {
      text = await readFile(join(this.dir(appId), 'meta.json'), 'utf8');
    } catch {
      throw notFound(`Analytics app "${appId}"`);
    }
    const meta = JSON.parse(text) as AppMeta;
    this.metas.set(appId, meta);
    return meta;
  }

  /** Writes the metadata atomically: a crash leaves the old file or the new one, never half. */
  private async saveMeta(meta: AppMeta) {
    const file = join(this.dir(meta.appId), 'meta.json');
    await writeFile(file + '.tmp', JSON.stringify(meta, null, 1));
    await rename(file + '.tmp', file);
    this.metas.set(meta.appId, meta);
  }

  async updateMeta(appId: string, change: (m: AppMeta) => void): Promise<AppMeta> {
    const meta = structuredClone(await this.storedMeta(appId));
    change(meta);
    await this.saveMeta(meta);
    return outward(meta);
  }

  private db(appId: string): Promise<ColumnarFile> {
    if (this.shared) return this.currentVersion(appId);
    let db = this.open.get(appId);
    if (!db) {
      db = this.openOwnFile(appId);
      this.open.set(appId, db);
      // A file that cannot be opened is tried again at the next call, not remembered as failed.
      db.catch(() => this.open.get(appId) === db && this.open.delete(appId));
    }
    return db;
  }

  /** The app's one data file (a folder no other server shares), converted first if it is still SQLite. */
  private async openOwnFile(appId: string): Promise<ColumnarFile> {
    const dir = this.dir(appId);
    if (!existsSync(join(dir, DATA_FILE)) && existsSync(join(dir, LEGACY_FILE))) {
      const target = join(dir, NEXT_FILE);
      try {
        await this.convertLegacy(appId, join(dir, LEGACY_FILE), target);
        await rename(target, join(dir, DATA_FILE));
      } finally {
        await rm(target, { force: true });
      }
      // The old file goes only once the new one has opened.
      const opened = await ColumnarFile.read(join(dir, DATA_FILE));
      for (const f of [LEGACY_FILE, `${LEGACY_FILE}-wal`, `${LEGACY_FILE}-shm`])
        await rm(join(dir, f), { force: true });
      return opened;
    }
    return ColumnarFile.read(join(dir, DATA_FILE));
  }

  /**
   * A data file of before the columnar store copied into a new DuckDB file, in the import worker (off
   * the main thread, within its memory limit), the types of the app's fields kept as they were.
   */
  private async convertLegacy(appId: string, legacy: string, target: string) {
    const meta = await this.storedMeta(appId);
    await runImportInWorker(
      {
        source: legacy,
        format: 'app-file',
        target,
        budget: this.importLimits.budget,
        types: meta.fields.map((f) => f.type),
      },
      this.importLimits.memoryMb,
      () => undefined,
    );
  }

  /** The data file the app's metadata names now: the one open if it is that one, else opened (the old one closed). */
  private async currentVersion(appId: string): Promise<ColumnarFile> {
    let file = (await this.storedMeta(appId)).dataFile ?? LEGACY_FILE;
    if (file.endsWith('.db')) file = await this.convertLegacyVersion(appId, file);
    const held = this.open.get(appId);
    if (held && this.openFile.get(appId) === file) return held;
    const opened = ColumnarFile.read(join(this.dir(appId), file));
    this.open.set(appId, opened);
    this.openFile.set(appId, file);
    if (held) void held.then((old) => old.close()).catch(() => undefined);
    return opened;
  }

  /**
   * A SQLite version (servers sharing the folder) converted as a new version of its own and named in
   * the metadata if no other server named one meanwhile; the old file stays for readers still on it.
   */
  private async convertLegacyVersion(appId: string, legacy: string): Promise<string> {
    const name = versionName();
    const target = join(this.dir(appId), name);
    try {
      await this.convertLegacy(appId, join(this.dir(appId), legacy), target);
    } catch (e) {
      await rm(target, { force: true });
      throw e;
    }
    const meta = await this.updateMeta(appId, (m) => {
      if ((m.dataFile ?? LEGACY_FILE) === legacy) m.dataFile = name;
    });
    const named = (await this.storedMeta(meta.appId)).dataFile ?? name;
    if (named !== name) await rm(target, { force: true });
    return named;
  }

  async close() {
    dropSpareImportWorker();
    for (const db of this.open.values()) await (await db).close().catch(() => undefined);
    this.open.clear();
    this.openFile.clear();
  }

  /**
   * Imports a file (CSV, XLSX, JSON) as the app's data: a reload. A worker thread with a memory
   * limit streams it into a new data file while queries keep reading the old one; the new file is
   * swapped in only when it is complete, so a failed import leaves the app as it was.
   */
  async importFile(
    appId: string,
    format: ImportFormat,
    content: Buffer,
    sourceName: string,
    progress?: (p: ImportProgress) => void,
  ) {
    const source = join(this.dir(appId), `upload-${randomUUID()}.tmp`);
    await writeFile(source, content, { mode: 0o600 });
    try {
      return await this.importFromFile(appId, format, source, sourceName, progress);
    } finally {
      await rm(source, { force: true });
    }
  }

  async warm() {
    await warmReader();
  }

  prepareImport() {
    prepareImportWorker(this.importLimits.memoryMb);
  }

  importBudget() {
    return { ...this.importLimits.budget };
  }

  /** Imports a file already on disk (an upload received as it arrived); the caller keeps and removes it. */
  async importFromFile(
    appId: string,
    format: ImportFormat,
    source: string,
    sourceName: string,
    progress?: (p: ImportProgress) => void,
  ) {
    const meta = await this.storedMeta(appId);
    return this.replaceData(appId, sourceName, progress, async (target) => {
      const outcome = await runImportInWorker(
        { source, format, target, budget: this.importLimits.budget },
        this.importLimits.memoryMb,
        (p) => progress?.({ appId, ...p }),
      );
      return {
        fields: keptFields(meta, outcome.headers, outcome.types, outcome.distinctCounts),
        rowCount: outcome.rowCount,
      };
    });
  }

  /**
   * New data for an app, written to a file of its own by `write` while queries keep reading the
   * old one. Alone on the folder, the complete file replaces the app's one data file; servers
   * sharing the folder get it as a new version (`publishVersion`). A failed write leaves the app as
   * it was.
   */
  private async replaceData(
    appId: string,
    sourceName: string,
    progress: ((p: ImportProgress) => void) | undefined,
    write: (target: string) => Promise<{ fields: FieldMeta[]; rowCount: number }>,
  ) {
    if (this.shared) return this.publishVersion(appId, sourceName, progress, write);
    const target = join(this.dir(appId), NEXT_FILE);
    try {
      const { fields, rowCount } = await write(target);
      await this.swapData(appId, target);
      return await this.reloaded(appId, fields, rowCount, sourceName, progress);
    } finally {
      await rm(target, { force: true });
    }
  }

  /**
   * New data as a new version (servers sharing the folder): written to a file of its own by `write`,
   * named in the metadata once complete, so no server ever reads a half-written file or has one
   * replaced under it. The version before stays for readers still on it; older ones go. A version
   * that fails before it is named is removed.
   */
  private async publishVersion(
    appId: string,
    sourceName: string,
    progress: ((p: ImportProgress) => void) | undefined,
    write: (target: string) => Promise<{ fields: FieldMeta[]; rowCount: number }>,
  ) {
    const name = versionName();
    const target = join(this.dir(appId), name);
    let published = false;
    try {
      const { fields, rowCount } = await write(target);
      // What readers may still be on: the version the stored metadata names now.
      const previous = (await this.storedMeta(appId)).dataFile ?? LEGACY_FILE;
      const next = await this.reloaded(appId, fields, rowCount, sourceName, progress, name);
      published = true;
      await this.removeVersionsBefore(appId, [name, previous]);
      return next;
    } finally {
      if (!published) await rm(target, { force: true });
    }
  }

  /** Removes the app's data versions other than those kept (and the single file of before versions). */
  private async removeVersionsBefore(appId: string, keep: (string | undefined)[]) {
    const dir = this.dir(appId);
    for (const f of await readdir(dir)) {
      const version = /^(data(?:-[a-z0-9-]+)?\.(?:db|duckdb))(-wal|-shm|\.wal)?$/.exec(f)?.[1];
      if (version && !keep.includes(version)) await rm(join(dir, f), { force: true });
    }
  }

  /** Replaces the app's data file with a complete new one; queries wait for the swap, then read the new file. */
  private async swapData(appId: string, next: string) {
    const file = join(this.dir(appId), DATA_FILE);
    const old = this.open.get(appId);
    const swapped = (async () => {
      // The readers of the data before finish first: the file is detached only once they have.
      if (old) await (await old.catch(() => null))?.close();
      await rename(next, file);
      // Data of before the columnar store, if the app still had it, is replaced too.
      for (const f of [LEGACY_FILE, `${LEGACY_FILE}-wal`, `${LEGACY_FILE}-shm`])
        await rm(join(this.dir(appId), f), { force: true });
      return ColumnarFile.read(file);
    })();
    this.open.set(appId, swapped);
    await swapped;
  }

  private async reloaded(
    appId: string,
    fields: FieldMeta[],
    rowCount: number,
    sourceName: string,
    progress?: (p: ImportProgress) => void,
    dataFile?: string,
  ) {
    const next = await this.updateMeta(appId, (m) => {
      m.fields = fields;
      m.rowCount = rowCount;
      m.reloadedAt = new Date().toISOString();
      m.source = sourceName;
      if (dataFile) m.dataFile = dataFile;
    });
    progress?.({ appId, percent: 100, rows: rowCount });
    for (const l of this.reloadListeners) l(appId);
    return next;
  }

  /**
   * Replaces the app's data with rows already typed (a reload, generated data): written to a new file
   * while readers keep the rows before, swapped in whole; field ids are kept by name so charts and
   * filters survive a reload, then the reload is announced.
   */
  async load(
    appId: string,
    table: TableData,
    sourceName: string,
    progress?: (p: ImportProgress) => void,
  ): Promise<AppMeta> {
    const meta = await this.meta(appId);
    return this.replaceData(appId, sourceName, progress, async (target) => {
      const counts = await writeTable(target, appId, table, progress);
      return {
        fields: keptFields(
          meta,
          table.headers,
          table.types,
          table.headers.map((_, i) => counts[`c${i}`] ?? 0),
        ),
        rowCount: table.rows.length,
      };
    });
  }

  /** `db` names the columns held as DATE: an expression reads them as the ISO text every date is. */
  private scope(meta: AppMeta, overrides: Record<string, string> = {}, db?: ColumnarFile): CompileScope {
    return {
      column: (name) => {
        const i = meta.fields.findIndex((f) => f.name.toLowerCase() === name.toLowerCase());
        if (i < 0) return undefined;
        return db?.dates.has(`c${i}`) ? `CAST(c${i} AS VARCHAR)` : `c${i}`;
      },
      variable: (name) => {
        const key = Object.keys(overrides).find((k) => k.toLowerCase() === name.toLowerCase());
        if (key) return overrides[key];
        return meta.variables.find((v) => v.name.toLowerCase() === name.toLowerCase())?.definition;
      },
    };
  }

  private fieldIndex(meta: AppMeta, name: string, input = 'selections'): number {
    const i = meta.fields.findIndex((f) => f.name.toLowerCase() === name.toLowerCase());
    if (i < 0)
      throw badInput(`Unknown field "${name}" in ${input}`, [{ field: input, message: `unknown field "${name}"` }]);
    return i;
  }

  /**
   * Selections as a bound WHERE: OR within a field, AND across fields. A value that is no number for
   * a number field, or no day for a DATE column, matches nothing (the store would refuse to compare it).
   */
  private where(meta: AppMeta, selections: Selections, except?: string, db?: ColumnarFile): Sql {
    const parts: string[] = [];
    const params: unknown[] = [];
    for (const [field, values] of Object.entries(selections)) {
      if (except && field.toLowerCase() === except.toLowerCase()) continue;
      const i = this.fieldIndex(meta, field);
      if (!values.length) continue;
      const type = meta.fields[i].type;
      const numeric = type === 'integer' || type === 'decimal';
      const kept = numeric ? values.filter((v) => v.trim() !== '' && !Number.isNaN(Number(v))).map(Number) : values;
      if (!kept.length) {
        parts.push('FALSE');
        continue;
      }
      const one = db?.dates.has(`c${i}`) ? 'TRY_CAST(? AS DATE)' : '?';
      parts.push(`c${i} IN (${kept.map(() => one).join(', ')})`);
      params.push(...kept);
    }
    return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
  }

  checkExpression(meta: AppMeta, expression: string, field: string): void {
    this.compile(meta, expression, field);
  }

  private compile(
    meta: AppMeta,
    expression: string,
    field: string,
    variables?: Record<string, string>,
    mode: 'measure' | 'row' = 'measure',
    db?: ColumnarFile,
  ): Sql {
    try {
      return compileExpression(expression, this.scope(meta, variables, db), mode);
    } catch (e) {
      return expressionFailure(e, field);
    }
  }

  /** Checks an expression against the app without running it (for saving charts and variables). */
  async validate(appId: string, expression: string, field: string) {
    this.compile(await this.meta(appId), expression, field);
  }

  private async hasData(appId: string, meta: AppMeta) {
    if (!meta.fields.length) throw badInput(`The app "${meta.name}" has no data yet; import a file first`);
    return this.db(appId);
  }

  /** One value of an expression (a KPI, a variable) under the selections. */
  async evaluate(
    appId: string,
    expression: string,
    selections: Selections = {},
    variables?: Record<string, string>,
  ): Promise<string | number | null> {
    const meta = await this.meta(appId);
    const db = await this.hasData(appId, meta);
    const expr = this.compile(meta, expression, 'expression', variables, 'measure', db);
    const where = this.where(meta, selections, undefined, db);
    const [row] = await db.all<{ v: string | number | null }>(`SELECT ${expr.sql} AS v FROM ${db.table} ${where.sql}`, [
      ...expr.params,
      ...where.params,
    ]);
    return row?.v ?? null;
  }

  /** A field's possible values under the other fields' selections, with how many rows have each. */
  async fieldValues(
    appId: string,
    field: string,
    selections: Selections = {},
    options: { search?: string; limit?: number } = {},
  ): Promise<FieldValue[]> {
    const meta = await this.meta(appId);
    const db = await this.hasData(appId, meta);
    const i = this.fieldIndex(meta, field, 'field');
    const where = this.where(meta, selections, field, db);
    const params = [...where.params];
    let search = '';
    if (options.search) {
      search = `${where.sql ? ' AND' : 'WHERE'} LOWER(CAST(c${i} AS TEXT)) LIKE ? ESCAPE '\\'`;
      params.push(`%${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    const limit = Math.max(1, Math.min(Math.floor(Number(options.limit ?? 1000)) || 1000, 100_000));
    const rows = await db.all<{ v: string | number | null; n: number }>(
      `SELECT c${i} AS v, COUNT(*) AS n FROM ${db.table} ${where.sql}${search} GROUP BY c${i} ORDER BY c${i} LIMIT ${limit}`,
      params,
    );
    return rows.map((r) => ({ value: r.v, count: r.n }));
  }

  /** A chart's data: one row per combination of dimension values, one column per measure. */
  async chartData(
    appId: string,
    chart: Pick<ChartDef, 'dimensions' | 'measures' | 'sort' | 'limit'>,
    selections: Selections = {},
    variables?: Record<string, string>,
  ): Promise<ChartData> {
    return (await this.chartDataGrouped(appId, chart, [], selections, variables)).get('')!;
  }

  /**
   * A chart's data for every combination of the `by` fields' values at once (a report iterating
   * them asks each chart once, not once per value): each combination's rows sorted and limited as
   * the chart alone would be, keyed by the combination's values joined by GROUP_KEY. Combinations
   * with a null among them are left out (a per-value selection never matches a null).
   */
  async chartDataGrouped(
    appId: string,
    chart: Pick<ChartDef, 'dimensions' | 'measures' | 'sort' | 'limit'>,
    by: string[],
    selections: Selections = {},
    variables?: Record<string, string>,
  ): Promise<Map<string, ChartData>> {
    const meta = await this.meta(appId);
    const db = await this.hasData(appId, meta);
    const groups = by.map((f) => this.fieldIndex(meta, f, 'iterationFields'));
    const dims = chart.dimensions.map((d) => this.fieldIndex(meta, d, 'dimensions'));
    const measures = chart.measures.map((m, k) =>
      this.compile(meta, m.expression, `measures.${k}.expression`, variables, 'measure', db),
    );
    const where = this.where(meta, selections, undefined, db);
    const select = [
      ...groups.map((i, k) => `c${i} AS g${k}`),
      ...dims.map((i, k) => `c${i} AS d${k}`),
      ...measures.map((m, k) => `${m.sql} AS m${k}`),
    ].join(', ');
    const keys = [...groups.map((_, k) => `g${k}`), ...dims.map((_, k) => `d${k}`)];
    const group = keys.length ? `GROUP BY ${keys.join(', ')}` : '';
    const sort = chart.sort;
    const sortKey = sort
      ? `${sort.by === 'dimension' ? 'd' : 'm'}${Math.max(0, sort.index)}`
      : dims.length
        ? 'd0'
        : null;
    const validKey =
      sortKey &&
      (sortKey.startsWith('d') ? Number(sortKey.slice(1)) < dims.length : Number(sortKey.slice(1)) < measures.length);
    // Ties go by the dimensions, in order: groups come from all cores in no order of their own, and a
    // top-N must not change from one run to the next.
    const ties = dims.map((_, k) => `d${k}`).filter((d) => d !== sortKey);
    const within = validKey ? [`${sortKey} ${sort?.direction === 'desc' ? 'DESC' : 'ASC'}`, ...ties] : [];
    const partition = groups.map((_, k) => `g${k}`);
    const order = [...partition, ...within];
    const limit = chart.limit && chart.limit > 0 ? Math.min(Math.floor(chart.limit), 100_000) : 0;
    // Each combination's own top N: numbered within its combination, as its chart alone would be limited.
    const qualify =
      limit && partition.length
        ? `QUALIFY row_number() OVER (PARTITION BY ${partition.join(', ')}${within.length ? ` ORDER BY ${within.join(', ')}` : ''}) <= ${limit}`
        : '';
    const params = [...measures.flatMap((m) => m.params), ...where.params];
    const rows = await db.all<Record<string, string | number | null>>(
      `SELECT ${select} FROM ${db.table} ${where.sql} ${group} ${qualify}
       ${order.length ? `ORDER BY ${order.join(', ')}` : ''} ${limit && !partition.length ? `LIMIT ${limit}` : ''}`,
      params,
    );
    const shape = {
      dimensions: dims.map((i) => meta.fields[i].name),
      measures: chart.measures.map((m) => m.label),
    };
    const out = new Map<string, ChartData>();
    for (const r of rows) {
      const combo = groups.map((_, k) => r[`g${k}`]);
      if (combo.some((v) => v === null)) continue;
      const key = combo.map(String).join(GROUP_KEY);
      let data = out.get(key);
      if (!data) out.set(key, (data = { ...shape, rows: [] }));
      data.rows.push([...dims.map((_, k) => r[`d${k}`]), ...measures.map((_, k) => r[`m${k}`])]);
    }
    // With nothing grouped, no rows is still the chart: empty, not absent.
    if (!groups.length && !out.size) out.set('', { ...shape, rows: [] });
    return out;
  }

  /**
   * An expression's value for every combination of the `by` fields' values at once, keyed as
   * `chartDataGrouped` keys them; combinations with a null among them are left out.
   */
  async evaluateGrouped(
    appId: string,
    expression: string,
    by: string[],
    selections: Selections = {},
    variables?: Record<string, string>,
  ): Promise<Map<string, string | number | null>> {
    const meta = await this.meta(appId);
    const db = await this.hasData(appId, meta);
    const groups = by.map((f) => this.fieldIndex(meta, f, 'iterationFields'));
    const expr = this.compile(meta, expression, 'expression', variables, 'measure', db);
    const where = this.where(meta, selections, undefined, db);
    const keys = groups.map((_, k) => `g${k}`);
    const rows = await db.all<Record<string, string | number | null>>(
      `SELECT ${[...groups.map((i, k) => `c${i} AS g${k}`), `${expr.sql} AS v`].join(', ')} FROM ${db.table} ${where.sql}
       ${keys.length ? `GROUP BY ${keys.join(', ')}` : ''}`,
      [...expr.params, ...where.params],
    );
    const out = new Map<string, string | number | null>();
    for (const r of rows) {
      const combo = keys.map((k) => r[k]);
      if (combo.some((v) => v === null)) continue;
      out.set(combo.map(String).join(GROUP_KEY), r.v ?? null);
    }
    return out;
  }

  /** Distinct combinations of the iteration fields under the selections, in order. */
  async iterationValues(appId: string, fields: string[], selections: Selections = {}): Promise<string[][]> {
    const meta = await this.meta(appId);
    const db = await this.hasData(appId, meta);
    const idx = fields.map((f) => this.fieldIndex(meta, f, 'iterationFields'));
    const where = this.where(meta, selections, undefined, db);
    const cols = idx.map((i) => `c${i}`).join(', ');
    const rows = await db.all<Record<string, unknown>>(
      `SELECT DISTINCT ${cols} FROM ${db.table} ${where.sql} ORDER BY ${cols}`,
      where.params,
    );
    return rows.map((r) => idx.map((i) => String(r[`c${i}`] ?? '')));
  }
}

/** A new data version's file name: unique, and sorting by when it was made. */
const versionName = () => `data-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}.duckdb`;

/** New data's fields, keeping the ids of fields known by name (charts and filters survive a reload). */
function keptFields(meta: AppMeta, headers: string[], types: FieldType[], distinctCounts: number[]): FieldMeta[] {
  return headers.map((name, i) => ({
    id: meta.fields.find((f) => f.name.toLowerCase() === name.toLowerCase())?.id ?? randomUUID(),
    name,
    type: types[i],
    distinctCount: Number(distinctCounts[i] ?? 0),
  }));
}

/**
 * Rows already typed written as a new data file (a reload's, the demo's), a few thousand a call so
 * the main thread is never held long; answers each column's distinct count.
 */
async function writeTable(
  target: string,
  appId: string,
  table: TableData,
  progress?: (p: ImportProgress) => void,
): Promise<Record<string, number>> {
  const cols = table.headers.map((_, i) => `c${i}`);
  await rm(target, { force: true });
  const db = await ColumnarFile.build(target);
  try {
    await db.createDataTable(table.types);
    for (let i = 0; i < table.rows.length; i += CHUNK) {
      await db.append('data', table.rows.slice(i, i + CHUNK), table.types);
      const done = Math.min(table.rows.length, i + CHUNK);
      progress?.({ appId, percent: Math.round((done / Math.max(1, table.rows.length)) * 90), rows: done });
    }
    if (!cols.length) return {};
    const [counts] = await db.all<Record<string, number>>(
      `SELECT ${cols.map((c) => `COUNT(DISTINCT ${c}) AS ${c}`).join(', ')} FROM data`,
    );
    return counts;
  } finally {
    await db.close();
    await syncFile(target);
  }
}
