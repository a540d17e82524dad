// Issue 59: PDF from templates at LibreOffice's own speed. One LibreOffice is kept warm per render
// thread and each conversion is handed to it; a hung or crashed one fails only its file, with the
// reason, and the next file converts; it never outlives the process that started it, kill -9 included.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findSoffice, officeConvert } from '../../engine/render/templates/office-pdf.js';
import { WarmOffice } from '../../engine/render/templates/warm-office.js';
import { pdfPages } from '../support/read-back.js';

const soffice = findSoffice();
let dir: string;
const offices: WarmOffice[] = [];

/** The LibreOffice processes whose command line names `part` (its profile folder). */
function officesNaming(part: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', `soffice.bin.*${part}`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const letter = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, `<html><body><h1>${text}</h1><p>Sales rose in ${text}.</p></body></html>`);
  return file;
};

/** Converts through `office` into a folder of its own and answers the PDF's text. */
async function convert(office: WarmOffice, input: string, timeoutMs = 120_000): Promise<string> {
  const out = mkdtempSync(join(dir, 'out-'));
  await office.convert(input, out, 'pdf:writer_pdf_Export', timeoutMs);
  const name = input
    .split('/')
    .pop()!
    .replace(/\.html$/, '.pdf');
  return pdfPages(readFileSync(join(out, name))).join(' ');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bs-warm-office-'));
});
afterEach(() => {
  for (const o of offices.splice(0)) o.stop();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(soffice)('LibreOffice kept warm', () => {
  it('converts file after file through one LibreOffice, each PDF its own', async () => {
    const office = new WarmOffice(soffice!);
    offices.push(office);
    expect(await convert(office, letter('emea.html', 'EMEA'))).toMatch(/Sales rose in EMEA/);
    const warm = office.pid;
    expect(warm).toBeDefined();
    for (const region of ['APAC', 'Americas', 'Nordics'])
      expect(await convert(office, letter(`${region}.html`, region))).toMatch(new RegExp(`Sales rose in ${region}`));
    // The same LibreOffice made all four: none was started for the last three.
    expect(office.pid).toBe(warm);
  }, 180_000);

  it("hands off a file whose name holds quotes, spaces and a shell's own characters, as it is named", async () => {
    const office = new WarmOffice(soffice!);
    offices.push(office);
    const odd = `O'Brien "Q3" $HOME & ; (co) \`x\`.html`;
    expect(await convert(office, letter(odd, 'Odd'))).toMatch(/Sales rose in Odd/);
    // No file came of the name's pieces: the shell neither split it nor ran any of it.
    expect(readdirSync(dir).filter((f) => f.includes('Brien'))).toEqual([odd]);
  }, 180_000);

  it('a hand-off that never starts fails its file when its time is up, and the next file converts', async () => {
    const office = new WarmOffice(soffice!);
    offices.push(office);
    await convert(office, letter('ready.html', 'Ready'));
    // The shell that starts hand-offs is paused: the next one cannot start.
    const keeper = office.pid!;
    const shells = execFileSync('pgrep', ['-P', String(keeper), '-x', 'sh'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(shells).toHaveLength(1);
    process.kill(Number(shells[0]), 'SIGSTOP');
    await expect(convert(office, letter('stuck.html', 'Stuck'), 3000)).rejects.toThrow(
      'LibreOffice did not finish within 3 s, so it was ended',
    );
    expect(await convert(office, letter('later.html', 'Later'))).toMatch(/Sales rose in Later/);
  }, 180_000);

  it('a hung LibreOffice fails only its file, with the reason, and the next file converts', async () => {
    const office = new WarmOffice(soffice!);
    offices.push(office);
    await convert(office, letter('first.html', 'First'));
    const profile = (office as unknown as { dir: string }).dir;
    const [hung] = officesNaming(profile);
    expect(hung).toBeGreaterThan(0);
    process.kill(hung, 'SIGSTOP');
    await expect(convert(office, letter('paused.html', 'Paused'), 3000)).rejects.toThrow(
      'LibreOffice did not finish within 3 s, so it was ended',
    );
    // The paused one is gone, not left stopped behind.
    await expect.poll(() => officesNaming(profile), { timeout: 30_000 }).toEqual([]);
    expect(await convert(office, letter('next.html', 'Next'))).toMatch(/Sales rose in Next/);
  }, 180_000);

  it('a crashed LibreOffice is replaced: the next file converts', async () => {
    const office = new WarmOffice(soffice!);
    offices.push(office);
    await convert(office, letter('before.html', 'Before'));
    const profile = (office as unknown as { dir: string }).dir;
    const [running] = officesNaming(profile);
    process.kill(running, 'SIGKILL');
    await expect.poll(() => office.pid, { timeout: 30_000 }).toBeUndefined();
    expect(await convert(office, letter('after.html', 'After'))).toMatch(/Sales rose in After/);
    const [again] = officesNaming((office as unknown as { dir: string }).dir);
    expect(again).toBeGreaterThan(0);
    expect(again).not.toBe(running);
  }, 180_000);

  it('does not outlive the engine that started it, killed with SIGKILL', async () => {
    const own = join(dir, 'child-tmp');
    mkdirSync(own);
    const input = letter('held.html', 'Held');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/support/office-convert-child.mts', input, '--hold'],
      { env: { ...process.env, TMPDIR: own }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let said = '';
    child.stdout.on('data', (d: Buffer) => (said += d.toString()));
    await expect.poll(() => said, { timeout: 120_000 }).toContain('converted');
    expect(pdfPages(readFileSync(`${input}.pdf`)).join(' ')).toMatch(/Sales rose in Held/);
    expect(officesNaming(own).length).toBe(1);
    child.kill('SIGKILL');
    await expect.poll(() => officesNaming(own), { timeout: 30_000 }).toEqual([]);
    // Its profile went with it.
    await expect
      .poll(() => readdirSync(own).filter((f) => f.startsWith('broadsheet-office-')), { timeout: 30_000 })
      .toEqual([]);
  }, 180_000);

  it('makes PDF from a template through the warm LibreOffice, and the next one too', async () => {
    // (LibreOffice's HTML import leaves out a page's first paragraph: the letter's text is its second.)
    const html = (t: string) => Buffer.from(`<html><body><p>Dear reader,</p><p>${t}</p></body></html>`);
    expect(pdfPages(await officeConvert(html('One letter'), 'html', 'pdf')).join(' ')).toMatch(/One letter/);
    expect(pdfPages(await officeConvert(html('Another letter'), 'html', 'pdf')).join(' ')).toMatch(/Another letter/);
  }, 180_000);
});
