import { chmod, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createEngine } from './engine.js';
import { startHttpServer } from './http/server.js';
import { buildCatalogue } from './ops/dispatch.js';
import { OPERATIONS } from './catalogue.js';
import { consoleLogger } from './core/console-logger.js';
import { fileKeyStore } from './secret-key-file.js';
import { serveSettings } from './serve-settings.js';

/** A database URL as it may be printed: without its password. */
const redactedUrl = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

async function main() {
  // Everything this process writes (database, keys, generated files) is readable by its owner only.
  process.umask(0o077);
  const settings = serveSettings(process.argv.slice(2), process.env);
  const { dataDir, port } = settings;
  let beginBackground = (): void => undefined;
  const started = createEngine({
    dataDir,
    database: settings.database,
    nodeId: settings.nodeId,
    // Servers on one database share one key (made by the first to start, never replaced).
    secretKeys: fileKeyStore(settings.secretKeyFile, { shared: !!settings.database }),
    ownerEmail: settings.ownerEmail,
    outageWaitMs: settings.outageWaitMs,
    logger: consoleLogger,
    release: process.env.npm_package_version,
    backgroundAfter: new Promise<void>((resolve) => (beginBackground = resolve)),
  });
  // Awaited below; a start that fails before then is not an unhandled rejection.
  started.catch(() => undefined);
  // The routes are set up while the engine opens its database; the server listens once it has started.
  const server = await startHttpServer(
    { catalogue: buildCatalogue(OPERATIONS), started },
    {
      host: settings.host,
      port,
      allowedHosts: settings.allowedHosts,
      rendererDir: resolve(__dirname, '..', 'renderer'),
      version: process.env.npm_package_version,
      // The background work starts once the first caller is answered (it would hold that answer up).
      onFirstAnswer: () => beginBackground(),
    },
  );
  const engine = await started;
  // A background start that fails ends the server, as a failed start does: no queue or schedule is
  // left silently not running.
  engine.backgroundReady.catch((e: unknown) => {
    console.error(`The background work could not start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
  if (engine.firstStart.created) {
    const ownerKeyFile = join(dataDir, 'owner-api-key');
    await writeFile(ownerKeyFile, (await engine.issueOwnerKey({ firstStart: true })) + '\n', { mode: 0o600 });
    await chmod(ownerKeyFile, 0o600);
    console.log(`Owner API key written to ${ownerKeyFile} (readable by you only). It is shown nowhere else.`);
  }
  let stopping = false;
  const stop = async () => {
    // A second signal while stopping changes nothing: runs are being handed back.
    if (stopping) return;
    stopping = true;
    const running = engine.runner.runningCount();
    if (running)
      console.log(
        `Stopping: ${running} run${running === 1 ? '' : 's'} under way get ${settings.stopGraceMs / 1000} s to finish; the rest go back to the queue and run again at the next start (or on another server)`,
      );
    await server.close();
    await engine.close({ graceMs: settings.stopGraceMs });
    process.exit(0);
  };
  // A fault no code awaited (a write to a database that went away) is logged; the server stays up.
  process.on('unhandledRejection', (e) =>
    consoleLogger.error('A background task failed', { error: e instanceof Error ? e.message : String(e) }),
  );
  // Listening for the stop before saying it serves: whoever acts on that line can stop it cleanly.
  const stopOrSay = () =>
    stop().catch((e: unknown) => {
      console.error(`The stop did not finish cleanly: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    });
  process.on('SIGINT', stopOrSay);
  process.on('SIGTERM', stopOrSay);
  const where = settings.database
    ? `database ${redactedUrl(settings.database)}, files in ${dataDir}, node ${settings.nodeId}`
    : `data in ${dataDir}`;
  console.log(`Broadsheet is serving ${server.url} (${where})`);
  // With no caller in the first second, it starts anyway: schedules are due whether anyone asks or not.
  setTimeout(beginBackground, BACKGROUND_WITHOUT_CALLER_MS).unref();
}

/** How long a server that nobody has asked anything waits before its background work starts. */
const BACKGROUND_WITHOUT_CALLER_MS = 1_000;

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
