// A conversion by a service user (tests/templates/office-service-user.test.ts): this process runs
// as `nobody`, converts the HTML named by argv[2] to PDF through the engine's own LibreOffice
// call, and writes the PDF beside it (or prints why it could not).
import { readFile, writeFile } from 'node:fs/promises';
import { officeConvert } from '../../engine/render/templates/office-pdf.js';

const input = process.argv[2];
try {
  const pdf = await officeConvert(await readFile(input), 'html', 'pdf');
  await writeFile(`${input}.pdf`, pdf);
  process.stdout.write('converted\n');
} catch (e) {
  process.stdout.write(`failed: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
