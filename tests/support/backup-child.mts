// An engine in its own process that writes one backup, for the test that kills it midway (SIGKILL).
// It says "BACKING UP" just before the backup starts.
import { createEngine } from '../../engine/engine.js';
import { createBackup } from '../../engine/features/backups/backups.rules.js';
import { TEST_PASSWORD_WORK } from './password-work.js';

const key = Buffer.from(process.env.BROADSHEET_TEST_KEY ?? '', 'hex');
const engine = await createEngine({
  dataDir: process.env.BROADSHEET_TEST_DATA ?? '',
  passwordWork: TEST_PASSWORD_WORK,
  secretKeys: { load: async () => key, save: async () => {} },
  demo: false,
  schedulerTimers: false,
});
process.stdout.write('BACKING UP\n');
await createBackup(engine.services, { file: process.env.BROADSHEET_TEST_BACKUP ?? '' });
process.stdout.write('DONE\n');
await engine.close();
