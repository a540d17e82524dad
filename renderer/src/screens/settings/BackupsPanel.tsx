import { useCallback, useEffect, useState } from 'react';
import { inZone } from '../../components/times';
import { WEEKDAYS } from '../../../../engine/wire';
import { invoke } from '../../bridge';
import { onEngineEvent } from '../../engine-events';
import type { ResultOf } from '../../../../engine/catalogue';
import { Form, submitOutcome, type FieldDef, type FormValues } from '../../components/Form';
import { choice, flag, num, orNull, text } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome, toastSucceeded } from '../../stores/feedback/toasts';

type Overview = ResultOf<'app.backups.overview'>;
const FREQUENCIES = ['Off', 'Daily', 'Weekly'] as const;

const KEY_MEANING =
  'A backup without the secrets key cannot open the passwords stored for mail, FTP, SFTP and directories on another machine: they are re-entered after a restore there. ' +
  'With the key, whoever has the backup file can open them: keep such a file as safe as the passwords themselves.';

const SETTINGS: FieldDef[] = [
  {
    name: 'folder',
    label: 'Backup folder',
    kind: 'text',
    hint: 'A full path outside the data folder, such as /mnt/backup/broadsheet (another disk is best)',
  },
  { name: 'frequency', label: 'Back up on a schedule', kind: 'select', required: true, choices: FREQUENCIES },
  { name: 'atHour', label: 'At hour (0–23, this machine’s time)', kind: 'number', required: true },
  // The day only where it means something: a weekly schedule.
  { name: 'weekday', label: 'On', kind: 'select', choices: WEEKDAYS, shownWhen: (v) => v.frequency === 'Weekly' },
  {
    name: 'keep',
    label: 'Backups to keep',
    kind: 'number',
    required: true,
    hint: 'The oldest of the scheduled backups go beyond this number',
  },
  { name: 'includeSecretKey', label: 'Include the secrets key in backups', kind: 'checkbox' },
];

const size = (bytes: number) =>
  bytes > 1 << 30
    ? `${(bytes / (1 << 30)).toFixed(1)} GB`
    : bytes > 1 << 20
      ? `${(bytes / (1 << 20)).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1024)} KB`;
const when = (iso: string | null) => inZone(iso) || '—';

/** Backups on demand and on a schedule, and restoring one (checked first, put in place at the next start). */
export function BackupsPanel() {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    const a = await invoke('app.backups.overview');
    if (a.ok) setOverview(a.data);
  }, []);
  useEffect(() => void load(), [load]);
  // The step a backup is at, as the engine says it: here, by the schedule, or before a reload.
  const [step, setStep] = useState<{ step: string; number: number; of: number } | null>(null);
  useEffect(() => onEngineEvent('backup.progress', setStep), []);
  // A backup under way (started here, by the schedule, or before a reload) is followed until it ends.
  const runningNow = !!overview?.running;
  useEffect(() => {
    if (!runningNow) return;
    const t = setTimeout(() => void load(), 2_000);
    return () => clearTimeout(t);
  }, [runningNow, overview, load]);
  if (!overview)
    return (
      <div className="panel">
        <h2>Backups</h2>
        <p className="empty">Loading…</p>
      </div>
    );

  const restore = async (file: string, withKey: boolean): Promise<ReturnType<typeof submitOutcome>> => {
    // The file is looked at before the question: a wrong path or a file that is no backup is said
    // beside the path, and the question names what would come back.
    const look = await invoke('app.backups.restore', { body: { file, checkOnly: true } });
    if (!look.ok) return submitOutcome(look);
    const held = Object.entries(look.data.counts)
      .filter(([table]) => ['users', 'projects', 'reports', 'tasks'].includes(table))
      .map(([table, n]) => `${n} ${n === 1 ? table.replace(/s$/, '') : table}`)
      .join(', ');
    const yes = await askConfirm({
      title: 'Restore this backup?',
      message: `The backup was taken ${when(look.data.createdAt)}${held ? ` and holds ${held}` : ''}. At the next start it replaces everything Broadsheet holds now: whatever was made or changed since it was taken is lost. Every file is checked first; the current data is kept aside until the restored data has started.`,
      confirmLabel: 'Check and restore',
    });
    if (!yes) return null;
    const a = await invoke('app.backups.restore', { body: { file, restoreSecretKey: withKey } });
    if (a.ok) setRestored(a.data.message);
    if (a.ok) void load();
    return submitOutcome(a);
  };

  const cancelRestore = async () => {
    const yes = await askConfirm({
      title: 'Call off the restore?',
      message: 'The next start keeps the data you have now; the checked backup is set aside (the file itself stays).',
      confirmLabel: 'Call off the restore',
      cancelLabel: 'Keep the restore',
    });
    if (!yes) return;
    if (toastOutcome(await invoke('app.backups.cancelRestore'), 'The restore is called off: the current data stays.'))
      setRestored(null);
    void load();
  };

  return (
    <div className="panel">
      <h2>Backups</h2>
      {restored && (
        <p className="notice" role="status">
          {restored}
        </p>
      )}
      {overview.restoreStaged && (
        <div className="notice" role="status">
          {!restored && (
            <p>
              A restore of {overview.restoreStaged.from.split(/[\\/]/).pop()} is checked and ready (since{' '}
              {when(overview.restoreStaged.stagedAt)}). Restart Broadsheet to finish it: the current data is kept aside
              until the restored data has started.
            </p>
          )}
          <button type="button" className="small" onClick={() => void cancelRestore()}>
            Call off the restore
          </button>
        </div>
      )}
      {(busy || overview.running) && step && (
        <div className="backup-progress">
          <progress max={step.of} value={step.number} aria-label="Backup progress" />
          <p className="hint" role="status">
            Step {step.number} of {step.of}: {step.step}…
          </p>
        </div>
      )}
      {overview.running && !busy && (
        <p className="notice" role="status">
          A backup is being written now. This page shows when it has finished; a backup that stops making progress stops
          by itself and says why.
        </p>
      )}
      <p className="status-line">
        Last backup: {when(overview.lastBackupAt)}
        {overview.lastResult?.error
          ? ` — failed: ${overview.lastResult.error}`
          : overview.lastResult?.size
            ? ` (${size(overview.lastResult.size)})`
            : ''}
        . Next scheduled: {when(overview.nextBackupAt)}.
      </p>
      <Form
        fields={[
          {
            name: 'file',
            label: 'Back up now to',
            kind: 'text',
            hint: overview.folder
              ? `Leave blank for a new file in ${overview.folder}`
              : 'A full path for the backup file (set a folder below to leave it blank)',
          },
        ]}
        initial={{}}
        submitLabel="Back up now"
        busyLabel="Backing up…"
        onSubmit={async (v) => {
          setBusy(true);
          setStep(null);
          const a = await invoke('app.backups.create', { body: { file: orNull(v.file) } }).finally(() => {
            setBusy(false);
            setStep(null);
          });
          if (a.ok)
            toastSucceeded(`Backed up to ${a.data.file} (${size(a.data.size)}, ${a.data.seconds.toFixed(1)} s).`);
          void load();
          return submitOutcome(a);
        }}
      />
      <h3 className="spaced">Schedule and retention</h3>
      <Form
        fields={SETTINGS}
        initial={{ ...overview } as FormValues}
        submitLabel="Save backup settings"
        onSubmit={async (v) => {
          const a = await invoke('app.backups.configure', {
            body: {
              folder: orNull(v.folder),
              frequency: choice(FREQUENCIES)(v.frequency),
              atHour: num(v.atHour) ?? 2,
              weekday: choice(WEEKDAYS)(v.weekday || 'Sunday'),
              keep: num(v.keep) ?? 7,
              includeSecretKey: flag(v.includeSecretKey),
            },
          });
          if (a.ok) {
            toastSucceeded('Backup settings saved.');
            setOverview(a.data);
          }
          return submitOutcome(a);
        }}
      >
        <p className="hint">{KEY_MEANING}</p>
      </Form>
      <h3 className="spaced">Restore</h3>
      {overview.backups.length ? (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Backup</th>
                <th scope="col">Size</th>
                <th scope="col">Taken</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.backups.map((b) => (
                <tr key={b.file}>
                  <td>{b.name}</td>
                  <td>{size(b.size)}</td>
                  <td>{when(b.modifiedDate)}</td>
                  <td>
                    <button type="button" className="small" onClick={() => void restore(b.file, false)}>
                      Restore…
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : overview.folder ? (
        <p className="empty">No backups in {overview.folder} yet: Back up now makes the first.</p>
      ) : (
        <p className="empty">
          Set a backup folder under Schedule and retention: the backups in it are listed here, to restore from.
        </p>
      )}
      <Form
        fields={[
          {
            name: 'file',
            label: 'Restore from a backup file',
            kind: 'text',
            required: true,
            hint: 'The full path of a .bsbackup file',
          },
          {
            name: 'restoreSecretKey',
            label: 'Also restore the secrets key it holds',
            kind: 'checkbox',
            hint: 'Only for a backup made with its key, restored on another machine',
          },
        ]}
        initial={{}}
        submitLabel="Check and restore"
        busyLabel="Checking the backup…"
        onSubmit={(v) => restore(text(v.file), flag(v.restoreSecretKey))}
      />
    </div>
  );
}
