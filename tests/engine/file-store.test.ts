// The file store runs' files and the hub's published files go through (issue 26: one interface, a
// folder now, object storage later). On a real folder: a file is whole or absent, a copy is a link
// that outlives its source, unfinished files are told apart and removed, and no key leaves the root.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderFileStore, type FileStore } from '../../engine/core/file-store.js';

let root: string;
let store: FileStore;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bs-file-store-'));
  store = folderFileStore(join(root, 'files'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the folder file store', () => {
  it('writes a file whole under its key, readable only by its owner, and reads it back', async () => {
    const data = Buffer.from('%PDF-1.7 North');
    await store.write('requests/r1/North.pdf', data);
    const path = join(root, 'files', 'requests', 'r1', 'North.pdf');
    expect(readFileSync(path)).toEqual(data);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(root, 'files', 'requests', 'r1'))).toEqual(['North.pdf']);
    expect(await store.read('requests/r1/North.pdf')).toEqual(data);
    expect(await store.localPath('requests/r1/North.pdf')).toBe(path);
  });

  it('copies a file to another key, which keeps it when the source is removed', async () => {
    await store.write('requests/r1/North.pdf', Buffer.from('north'));
    await store.copy('requests/r1/North.pdf', 'hub/f1/o1.pdf');
    expect(await store.removeAll('requests/r1')).toBe(1);
    expect(existsSync(join(root, 'files', 'requests', 'r1'))).toBe(false);
    expect((await store.read('hub/f1/o1.pdf')).toString()).toBe('north');
    await store.remove('hub/f1/o1.pdf');
    await store.remove('hub/f1/o1.pdf'); // already gone: no fault
    await expect(store.read('hub/f1/o1.pdf')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes what a crash left half-written and keeps whole files', async () => {
    await store.write('requests/r2/A.html', Buffer.from('a'));
    // What a write cut off by kill -9 leaves.
    writeFileSync(join(root, 'files', 'requests', 'r2', 'B.html.part'), 'b, half');
    expect(await store.removeUnfinished('requests/r2')).toBe(1);
    expect(readdirSync(join(root, 'files', 'requests', 'r2'))).toEqual(['A.html']);
    expect(await store.removeUnfinished('requests/never-made')).toBe(0);
    expect(await store.removeAll('requests/never-made')).toBe(0);
  });

  it('refuses keys that would leave its root or name no file', async () => {
    for (const key of ['../escape.pdf', 'requests/../../escape.pdf', '/etc/passwd', 'requests//x', 'a\\b', '', 'x/.'])
      await expect(store.write(key, Buffer.from('x')), key).rejects.toThrow('Not a file key');
    await expect(store.read('requests/../../../etc/passwd')).rejects.toThrow('Not a file key');
    expect(existsSync(join(root, 'escape.pdf'))).toBe(false);
  });
});
