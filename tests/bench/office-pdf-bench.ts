// PDF from templates at LibreOffice's own speed (issue 59). A 100-letter iterated Word run made PDF
// through the product's conversion (LibreOffice kept warm, its start counted) against the floor: one
// `soffice --convert-to pdf` over the same 100 filled files in one start. And one PDF's latency with
// LibreOffice warm against the bare hand-off of the same file to a LibreOffice already running. The
// way before (a LibreOffice started per file) is measured on a sample for the figure it replaces.
// Every PDF made is read back: a sample's text names its customer.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Document, Packer, Paragraph } from 'docx';
import { figure } from './verdicts.js';
import { pdfPages } from '../support/read-back.js';
import { openOfficePackage } from '../../engine/render/templates/template-package.js';
import { fillDocx } from '../../engine/render/templates/docx-fill.js';
import { emptyScope, type TemplateData } from '../../engine/render/templates/template-data.js';
import { endWarmOffice, findSoffice, officeConvert } from '../../engine/render/templates/office-pdf.js';
import { median } from './stats.js';

const run = promisify(execFile);
const FILES = 100;
const COLD_SAMPLE = 10;

const customer = (i: number) => `Customer ${String(i + 1).padStart(3, '0')}`;

/** The letter of one customer, filled by the product from a Word template. */
async function letters(): Promise<Buffer[]> {
  const template = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            'Dear {{field:Customer}},',
            'you placed {{vOrders}} orders with us this year, for {{vSales}} in all.',
            'Thank you for your business.',
          ].map((t) => new Paragraph(t)),
        },
      ],
    }),
  );
  return Promise.all(
    Array.from({ length: FILES }, async (_, i) => {
      const root = emptyScope();
      root.fields['f:customer'] = [{ raw: customer(i), text: customer(i) }];
      root.scalars['v:vorders'] = { raw: i * 3, text: String(i * 3) };
      root.scalars['v:vsales'] = { raw: i * 1234.5, text: (i * 1234.5).toFixed(2) };
      const data: TemplateData = { title: 'Letters', decimalSeparator: '.', groupSeparator: ',', root };
      return fillDocx(await openOfficePackage(template, 'docx'), data);
    }),
  );
}

/** A PDF's text names its customer, or the bench says which did not. */
function checked(pdf: Buffer, i: number) {
  const text = pdfPages(pdf).join(' ');
  if (!text.includes(`Dear ${customer(i)},`)) throw new Error(`PDF ${i + 1} does not name ${customer(i)}`);
}

/** LibreOffice's small launcher beside its program (oosplash on Linux), as the product hands off with. */
function launcherOf(soffice: string): string {
  const oosplash = join(dirname(realpathSync(soffice)), 'oosplash');
  return existsSync(oosplash) ? oosplash : soffice;
}

export async function officePdfBench() {
  const soffice = findSoffice();
  if (!soffice) return [{ measure: 'PDF from templates', note: 'LibreOffice is not installed: not measured' }];
  const files = await letters();
  const dir = mkdtempSync(join(tmpdir(), 'bs-bench-office-'));
  try {
    // Ours: the run's 100 conversions one after another, from no LibreOffice running.
    endWarmOffice();
    const t0 = performance.now();
    const ours: Buffer[] = [];
    for (const f of files) ours.push(await officeConvert(f, 'docx', 'pdf'));
    const oursMs = performance.now() - t0;
    for (const i of [0, 49, FILES - 1]) checked(ours[i], i);

    // The floor: the same 100 filled files, one LibreOffice start converting them all.
    const inDir = join(dir, 'in');
    mkdirSync(inDir);
    const names = files.map((f, i) => {
      const name = join(inDir, `letter-${i}.docx`);
      writeFileSync(name, f);
      return name;
    });
    const profile = (name: string) => `-env:UserInstallation=${pathToFileURL(join(dir, name)).href}`;
    const env = { ...process.env, HOME: dir, TMPDIR: dir };
    const f0 = performance.now();
    await run(
      soffice,
      ['--headless', '--norestore', profile('floor'), '--convert-to', 'pdf', '--outdir', join(dir, 'floor'), ...names],
      {
        env,
        maxBuffer: 1 << 24,
      },
    );
    const floorMs = performance.now() - f0;
    for (const i of [0, FILES - 1]) checked(readFileSync(join(dir, 'floor', `letter-${i}.pdf`)), i);

    // One PDF with LibreOffice warm (ours, median of 15) against the bare hand-off of the same file
    // to a LibreOffice already running (median of 15).
    const single: number[] = [];
    for (let k = 0; k < 15; k++) {
      const s0 = performance.now();
      const pdf = await officeConvert(files[7], 'docx', 'pdf');
      single.push(performance.now() - s0);
      checked(pdf, 7);
    }
    endWarmOffice();
    const held = join(dir, 'held.txt');
    writeFileSync(held, '');
    const office = spawn(soffice, ['--headless', '--norestore', '--nodefault', profile('warm'), held], {
      env,
      stdio: 'ignore',
    });
    let bareMs = 0;
    try {
      while (!existsSync(join(dir, '.~lock.held.txt#'))) await new Promise((r) => setTimeout(r, 50));
      // The hand-offs from a shell loop (no Node fork in the figure), after one to warm it; the mean.
      const handOff = `"${launcherOf(soffice)}" --headless --norestore ${profile('warm')} --convert-to pdf --outdir "${join(dir, 'bare')}" "${names[7]}" >/dev/null 2>&1`;
      await run('sh', ['-c', handOff], { env });
      const b0 = performance.now();
      await run('sh', ['-c', `for i in $(seq 15); do ${handOff}; done`], { env });
      bareMs = (performance.now() - b0) / 15;
      checked(readFileSync(join(dir, 'bare', 'letter-7.pdf')), 7);
    } finally {
      office.kill('SIGKILL');
      spawn('pkill', ['-9', '-f', `soffice.bin.*${dir}`]);
    }

    // The way before, on a sample: a LibreOffice started for each file.
    process.env.BROADSHEET_OFFICE_WARM = '0';
    const c0 = performance.now();
    for (let i = 0; i < COLD_SAMPLE; i++) checked(await officeConvert(files[i], 'docx', 'pdf'), i);
    const coldPerFile = (performance.now() - c0) / COLD_SAMPLE;
    delete process.env.BROADSHEET_OFFICE_WARM;

    return [
      {
        measure: `${FILES} Word letters to PDF, one after another (LibreOffice's start counted)`,
        'Broadsheet ms': oursMs.toFixed(0),
        'floor ms': floorMs.toFixed(0),
        'floor is': `one soffice --convert-to over the same ${FILES} files`,
        ratio: figure({
          id: 'template-peers.pdf-run',
          measure: `${FILES} Word letters to PDF against one LibreOffice start converting them all`,
          value: oursMs / floorMs,
          unit: '×',
          goal: { atMost: 1.3 },
          note: 'issue 59',
        }).toFixed(2),
        checked: 'letters 1, 50, 100 read back (and the floor’s 1, 100)',
      },
      {
        measure: 'one PDF, LibreOffice warm (median of 15)',
        'Broadsheet ms': median(single).toFixed(1),
        'floor ms': bareMs.toFixed(1),
        'floor is': 'the same hand-off to a LibreOffice already running, from a shell loop (mean of 15)',
        ratio: figure({
          id: 'template-peers.pdf-one',
          measure: 'One PDF with LibreOffice warm, against the bare hand-off of the same file',
          value: median(single) / bareMs,
          unit: '×',
          goal: { atMost: 1.3 },
          note: 'issue 59',
        }).toFixed(2),
        checked: 'each PDF read back',
      },
      {
        measure: 'one PDF, a LibreOffice started for it (the way before)',
        'Broadsheet ms': coldPerFile.toFixed(0),
        'floor ms': '',
        'floor is': `mean of ${COLD_SAMPLE} files`,
        ratio: (coldPerFile / median(single)).toFixed(1) + '× the warm one',
        checked: `${COLD_SAMPLE} read back`,
      },
    ];
  } finally {
    endWarmOffice();
    rmSync(dir, { recursive: true, force: true });
  }
}
