import type { EngineServices } from '../../ops/context.js';
import { Periodic } from '../../core/jobs/periodic.js';
import {
  applyRetention,
  backupSettings,
  createBackup,
  nextBackupAfter,
  recordFailedBackup,
  recordInterruptedBackup,
} from './backups.rules.js';
import type { WorkerModule } from '../../ops/worker-module.js';

const CHECK_EVERY_MS = 60_000;

/** Takes the scheduled backup when its time has come (on the engine's clock), then applies retention. */
export class BackupSchedule implements WorkerModule {
  readonly name = 'backups';
  private readonly periodic: Periodic;

  constructor(
    private readonly services: EngineServices,
    options: { timers?: boolean } = {},
  ) {
    this.periodic = new Periodic(
      CHECK_EVERY_MS,
      () => this.tick(),
      (e) => services.log.error('The scheduled backup failed', { error: e.message }),
      options.timers !== false,
    );
  }

  async start() {
    if (await recordInterruptedBackup(this.services))
      this.services.log.warn('A backup was interrupted by a stop; its last result says so');
    this.periodic.start();
  }

  /** Takes the backup if one is due now; answers whether it did. */
  async tick(): Promise<boolean> {
    const settings = await backupSettings(this.services);
    // The first due time counts from the last backup, or from when the schedule was set up.
    const next = nextBackupAfter(
      settings,
      new Date(settings.lastBackupAt ?? settings.scheduledFrom ?? this.services.now().toISOString()),
    );
    if (!next || next > this.services.now() || !settings.folder) return false;
    try {
      await createBackup(this.services, {}, 'folder');
    } catch (e) {
      // Recorded as the last backup's result, so the next try waits for the next due time rather than every minute.
      await recordFailedBackup(this.services, (e as Error).message);
      throw e;
    }
    const removed = await applyRetention(settings.folder, settings.keep);
    if (removed) this.services.log.info('Old backups removed by retention', { folder: settings.folder, removed });
    return true;
  }

  close() {
    this.periodic.stop();
  }
}
