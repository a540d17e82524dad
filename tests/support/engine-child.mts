// An engine in its own process on an existing data folder, for tests that kill it (SIGKILL): it
// picks up the queue as the app does on start. It says "STARTED" once open, and "RUNNING <id>" once
// a request is well under way (BROADSHEET_TEST_PROGRESS files made) — or, with BROADSHEET_TEST_RELOAD
// naming an app, once that app's reload is writing its new data (BROADSHEET_TEST_PROGRESS percent).
import { createEngine } from '../../engine/engine.js';
import { Request } from '../../engine/model/requests.entity.js';
import { TEST_PASSWORD_WORK } from './password-work.js';

const key = Buffer.from(process.env.BROADSHEET_TEST_KEY ?? '', 'hex');
const engine = await createEngine({
  dataDir: process.env.BROADSHEET_TEST_DATA ?? '',
  passwordWork: TEST_PASSWORD_WORK,
  database: process.env.BROADSHEET_TEST_DATABASE || undefined,
  secretKeys: { load: async () => key, save: async () => {} },
  demo: false,
  mail: process.env.BROADSHEET_TEST_MAIL_FAST ? { baseDelayMs: 20, maxDelayMs: 200 } : undefined,
  nodeId: process.env.BROADSHEET_TEST_NODE || undefined,
});
process.stdout.write('STARTED\n');
const want = Number(process.env.BROADSHEET_TEST_PROGRESS ?? '10');
const reloading = process.env.BROADSHEET_TEST_RELOAD;
if (reloading) {
  let said = false;
  engine.on((e) => {
    if (said || e.type !== 'analytics.import.progress' || e.payload.appId !== reloading) return;
    if (e.payload.percent < want) return;
    said = true;
    process.stdout.write(`RUNNING ${reloading}\n`);
  });
  void engine.services.reloads.reloadNow(reloading, null);
}
for (; !reloading; ) {
  const running = await engine.services.db.getRepository(Request).findOneBy({ status: 'running' });
  if (running && running.progressDone >= want) {
    process.stdout.write(`RUNNING ${running.id}\n`);
    break;
  }
  await new Promise((r) => setTimeout(r, 20));
}
// Keep running until killed.
setInterval(() => {}, 1000);
