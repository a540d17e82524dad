// One way to write a generated module: a header saying what writes it, one exported constant holding
// data, formatted as `npm run format` would, so the layer and Prettier checks pass as for any file.
import { writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';

export async function writeGenerated(file: string, header: string[], name: string, value: unknown): Promise<void> {
  const text = [...header.map((line) => `// ${line}`), '', `export const ${name} = ${JSON.stringify(value)};`, ''].join(
    '\n',
  );
  await writeFile(file, await format(text, { ...(await resolveConfig(file)), filepath: file }));
}
