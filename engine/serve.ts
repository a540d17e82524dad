import { chmod, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from './engine.js';
import { startHttpServer } from './http/server.js';
import { buildCatalogue } from './ops/dispatch.js';
import { OPERATIONS } from './catalogue.js';
import { consoleLogger } from './core/console-logger.js';
import { fileKeyStore, SECRET_KEY_FILE_ENV } from './secret-key-file.js';

async function main() {
  // Everything this process writes (database, keys, generated files) is readable by its owner only.
  process.umask(0o077);
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string', default: '.data' },
      port: { type: 'string', default: '5123' },
      host: { type: 'string', default: '127.0.0.1' },
      'owner-email': { type: 'string', default: 'owner@localhost' },
      'allowed-host': { type: 'string', multiple: true },
      'secret-key-file': { type: 'string' },
    },
  });
  const dataDir = resolve(values['data-dir']!);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, got ${values.port}`);
  // Outside the data folder when asked: a copy of the folder (a backup, a stolen disk image) then decrypts nothing.
  let listening = (): void => undefined;
  const keyFile = resolve(values['secret-key-file'] ?? process.env[SECRET_KEY_FILE_ENV] ?? join(dataDir, 'secret.key'));
  const started = createEngine({
    dataDir,
    secretKeys: fileKeyStore(keyFile),
    ownerEmail: values['owner-email'],
    logger: consoleLogger,
    release: process.env.npm_package_version,
    demoAfter: new Promise<void>((resolve) => (listening = resolve)),
  });
  // Awaited below; a start that fails before then is not an unhandled rejection.
  started.catch(() => undefined);
  // The routes are set up while the engine opens its database; the server listens once it has started.
  const server = await startHttpServer(
    { catalogue: buildCatalogue(OPERATIONS), started },
    {
      host: values.host,
      port,
      allowedHosts: values['allowed-host'],
      rendererDir: resolve(__dirname, '..', 'renderer'),
      version: process.env.npm_package_version,
    },
  );
  const engine = await started;
  if (engine.firstStart.created) {
    const ownerKeyFile = join(dataDir, 'owner-api-key');
    await writeFile(ownerKeyFile, (await engine.issueOwnerKey()) + '\n', { mode: 0o600 });
    await chmod(ownerKeyFile, 0o600);
    console.log(`Owner API key written to ${ownerKeyFile} (readable by you only). It is shown nowhere else.`);
  }
  const stop = async () => {
    await server.close();
    await engine.close();
    process.exit(0);
  };
  // Listening for the stop before saying it serves: whoever acts on that line can stop it cleanly.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`Broadsheet is serving ${server.url} (data in ${dataDir})`);
  listening();
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
