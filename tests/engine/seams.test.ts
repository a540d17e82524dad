// Issue 60: a rule or a kind lives in one place, and what would write it out again is counted here.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');

/** Every TypeScript source file under a folder of the repository, by its path from the root. */
function sources(folder: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(e.name)) out.push({ path: relative(root, full), text: readFileSync(full, 'utf8') });
    }
  };
  walk(join(root, folder));
  return out;
}

describe('one seam per rule', () => {
  it('asks "tenant owner or tenant administrator" through isTenantAdministrator alone', () => {
    // The one flag or the other, side by side ("p.isTenantOwner || p.isTenantAdmin", "me(ctx).isTenantAdmin || …").
    const handWritten =
      /isTenantOwner\s*\|\|\s*(?:[\w.?]|\(\w*\))*isTenantAdmin\b|isTenantAdmin\s*\|\|\s*(?:[\w.?]|\(\w*\))*isTenantOwner\b/;
    const found = [...sources('engine'), ...sources('renderer/src')]
      .filter((f) => f.path !== join('engine', 'access', 'tenant-administrator.ts'))
      .flatMap((f) =>
        f.text
          .split('\n')
          .map((line, i) => ({ line, at: `${f.path}:${i + 1}` }))
          .filter(({ line }) => handWritten.test(line))
          .map(({ at }) => at),
      );
    expect(found).toEqual([]);
  });

  it("builds a chart's block from its data in one place (categories joined by ' · ', a series per measure)", () => {
    const builders = sources('engine')
      .filter((f) => f.text.includes(".join(' · ')"))
      .map((f) => f.path);
    expect(builders).toEqual([join('engine', 'render', 'chart-block.ts')]);
  });

  it('starts the engine in a few named steps, none of them the whole start', () => {
    const text = readFileSync(join(root, 'engine', 'engine.ts'), 'utf8');
    const body = /\nasync function startEngine\([^]*?\n}\n/.exec(text)![0];
    expect(body.split('\n').length).toBeLessThan(80);
    for (const step of [
      'prepareDataFolder',
      'openStore',
      'openAnalytics',
      'baseServices',
      'buildWorkers',
      'startBackground',
    ])
      expect(body).toContain(`${step}(`);
  });

  it('keeps schedules in a room of their own: the areas that own a schedule do not reach into tasks for it', () => {
    const owners = ['backups', 'app-data', 'user-directories', join('runs', 'schedule')];
    const intoTasks = owners
      .flatMap((area) => sources(join('engine', 'features', area)))
      .filter((f) => /from '(\.\.\/)+tasks\//.test(f.text))
      .map((f) => f.path);
    expect(intoTasks).toEqual([]);
    const room = sources(join('engine', 'features', 'schedules')).map((f) => f.path.split('/').pop());
    expect(room).toEqual(expect.arrayContaining(['fire-times.ts', 'schedule-spec.ts', 'schedule-fields.ts']));
  });

  it("asks an identity provider what its kind does through its seam, never by the kind's name", () => {
    const byName = /kindOf\([^)]*\)\s*[!=]==\s*'(oidc|saml|jwt)'/;
    const found = sources('engine')
      .filter((f) => byName.test(f.text))
      .map((f) => f.path);
    expect(found).toEqual([]);
    const kinds = sources(join('engine', 'features', 'sso', 'kinds'))
      .filter((f) => /: ProviderKindSeam = \{/.test(f.text))
      .map((f) => f.path.split('/').pop());
    expect(kinds.sort()).toEqual(['jwt.ts', 'oidc.ts', 'saml.ts']);
    // What the SAML-or-JWT form asks of each type is one table (SAML_FORM_ASKS), not type tests in the form.
    const screen = readFileSync(
      join(root, 'renderer', 'src', 'screens', 'identity-providers', 'IdentityProvidersScreen.tsx'),
      'utf8',
    );
    expect(screen.match(/shownWhen: (?!asks\()/g) ?? []).toEqual([]);
  });

  it('asks a destination what its kind does through its seam: save, test and delivery name no kind', () => {
    const byName = /\b[xf]\.type === '(Folder|FTP|FTPS|SFTP|WebDAV)'/;
    const users = [join('engine', 'features', 'runs', 'deliver', 'storage-delivery.ts')];
    const found = users.filter((path) => byName.test(readFileSync(join(root, path), 'utf8')));
    expect(found).toEqual([]);
    // The save and the test ask the table; only the answer's own fields (set B's) are named by type.
    const rules = readFileSync(join(root, 'engine', 'features', 'storage', 'storage.rules.ts'), 'utf8');
    expect(rules.match(/\b[xf]\.type === '(Folder|FTP|FTPS|SFTP|WebDAV)'/g) ?? []).toHaveLength(2);
    const kinds = sources(join('engine', 'features', 'storage', 'kinds'))
      .filter((f) => /: StorageKind = \{/.test(f.text))
      .map((f) => f.path.split('/').pop());
    expect(kinds.sort()).toEqual(['cloud.ts', 'folder.ts', 'ftp.ts', 'sftp.ts', 'webdav.ts']);
    // What the screen asks of each kind is one table beside them (STORAGE_ASKS), not type tests in the form.
    const screen = readFileSync(
      join(root, 'renderer', 'src', 'screens', 'storage', 'StorageServicesScreen.tsx'),
      'utf8',
    );
    expect(screen.match(/shownWhen: (?!asks\()/g) ?? []).toEqual([]);
  });

  it('writes every schema change since the delivery queue once for both databases', () => {
    const since = 1766361600000;
    const files = readdirSync(join(root, 'engine', 'migrations')).filter((f) => /^\d+-.*\.ts$/.test(f));
    const twice = files
      .filter((f) => Number(f.split('-')[0]) >= since)
      .filter((f) => !readFileSync(join(root, 'engine', 'migrations', f), 'utf8').includes('portableMigration('));
    expect(files.filter((f) => Number(f.split('-')[0]) >= since).length).toBeGreaterThanOrEqual(2);
    expect(twice).toEqual([]);
    // And PostgreSQL's hand-written list stops where the written-once ones begin.
    const hand = readFileSync(join(root, 'engine', 'migrations', 'postgres', 'index.ts'), 'utf8');
    const stamps = [...hand.matchAll(/class Postgres\w+?(\d{13})\b/g)].map((m) => Number(m[1]));
    expect(stamps.filter((t) => t >= since)).toEqual([]);
  });
});
