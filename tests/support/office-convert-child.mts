// A conversion by a service user (tests/templates/office-service-user.test.ts): this process runs
// as `nobody`, converts the HTML named by argv[2] to PDF through the engine's own LibreOffice
// call, and writes the PDF beside it (or prints why it could not). With `--hold` it then waits to be
// killed (tests/templates/warm-office.test.ts: its warm LibreOffice must not outlive a kill -9).
import { readFile, writeFile } from 'node:fs/promises';
import { officeConvert } from '../../engine/render/templates/office-pdf.js';

const input = process.argv[2];
try {
  const pdf = await officeConvert(await readFile(input), 'html', 'pdf');
  await writeFile(`${input}.pdf`, pdf);
  process.stdout.write('converted\n');
  if (process.argv[3] === '--hold') setInterval(() => {}, 60_000);
} catch (e) {
  process.stdout.write(`failed: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
