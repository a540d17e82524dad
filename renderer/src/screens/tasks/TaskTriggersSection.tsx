import { useState } from 'react';
import { invoke } from '../../bridge';
import { useAllRows } from '../../hooks/useAllRows';
import type { RowOf } from '../../../../engine/catalogue';
import { Form, submitOutcome, type FieldDef, type Option } from '../../components/Form';
import { ids, instant, num, text } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome } from '../../stores/feedback/toasts';
import type { TaskDto } from './TaskDesigner';

type Trigger = RowOf<'v1.taskTriggers.list'>;
const FREQUENCIES = ['Once', 'Hourly', 'Daily', 'Weekly', 'Monthly', 'Yearly'] as const;
type Frequency = (typeof FREQUENCIES)[number];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const AT: FieldDef[] = [{ name: 'atHour', label: 'At hour (0–23)', kind: 'number', required: true }, { name: 'atMinut', label: 'At minute (0–59)', kind: 'number', required: true }];
// A schedule asks only what its frequency needs.
const FIELDS_BY_FREQUENCY: Record<Frequency, FieldDef[]> = {
  Once: [],
  Hourly: [{ name: 'everyHours', label: 'Every N hours', kind: 'number', required: true }, { name: 'fromHour', label: 'From hour', kind: 'number' }, { name: 'toHour', label: 'To hour', kind: 'number' }],
  Daily: AT,
  Weekly: [{ name: 'weeklyDays', label: 'On', kind: 'multi', required: true, choices: DAYS }, ...AT],
  Monthly: [{ name: 'day', label: 'Day of the month (31: the last day)', kind: 'number', required: true }, ...AT],
  Yearly: [{ name: 'month', label: 'Month (1–12)', kind: 'number', required: true }, { name: 'day', label: 'Day', kind: 'number', required: true }, ...AT],
};
const COMMON_FIELDS: FieldDef[] = [
  { name: 'timeZone', label: 'Time zone', kind: 'text', required: true, hint: 'An IANA zone, such as Europe/Paris' },
  { name: 'startDate', label: 'Starts (a Once schedule runs then)', kind: 'datetime', required: true },
  { name: 'endDate', label: 'Ends', kind: 'datetime', required: true },
];
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
const here = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const appOptions = async (): Promise<Option[]> => {
  const a = await invoke('v1.analyticsApps.list', { query: { get_all: true } });
  return a.ok ? a.data.map((x) => ({ id: x.appId, name: x.name })) : [];
};

/** When a task runs: schedules (with their sentence and next five runs) and app reloads. */
export function TaskTriggersSection({ task }: { task: TaskDto }) {
  const [rows, load] = useAllRows('v1.taskTriggers.list', { taskId: task.id });
  const [adding, setAdding] = useState<'schedule' | 'event'>('schedule');
  const [frequency, setFrequency] = useState<Frequency>('Daily');
  const remove = async (t: Trigger) => {
    const yes = await askConfirm({ title: 'Delete trigger?', message: `“${t.name}” will no longer start this task.`, confirmLabel: 'Delete trigger' });
    if (!yes) return;
    toastOutcome(await invoke('v2.tasks.deleteTriggers', { params: { id: task.id }, body: [t.id] }), `Deleted “${t.name}”.`);
    void load();
  };
  const now = new Date();
  return (
    <div className="panel">
      <h2>When it runs</h2>
      <ul className="cards">
        {rows === null && <li className="empty">Loading…</li>}
        {rows?.map((t) => (
          <li key={t.id} className="stacked">
            <strong>{t.name}</strong> <span className="badge">{t.type === 'Schedule' ? 'schedule' : 'on reload'}</span>
            {!t.isActive && <span className="badge">off</span>}
            <span className="card-actions">
              <button type="button" className="small danger" aria-label={`Delete trigger ${t.name}`} onClick={() => void remove(t)}>Delete</button>
            </span>
            <div className="hint">{t.summary ?? `When the app ${t.appId} reloads`}</div>
            {t.nextRuns.length > 0 && (
              <details>
                <summary>Next runs</summary>
                <ol className="next-runs">{t.nextRuns.map((r) => <li key={r}>{new Date(r).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'short' })}</li>)}</ol>
              </details>
            )}
          </li>
        ))}
        {rows?.length === 0 && <li className="empty">Runs only when started by hand: add a schedule or a reload event.</li>}
      </ul>
      <div className="segmented" role="radiogroup" aria-label="Add">
        <label><input type="radio" name="trigger-kind" checked={adding === 'schedule'} onChange={() => setAdding('schedule')} /> Schedule</label>
        <label><input type="radio" name="trigger-kind" checked={adding === 'event'} onChange={() => setAdding('event')} /> App reload</label>
      </div>
      {adding === 'schedule' ? (
        <>
          <label className="field">
            <span>Frequency</span>
            <select value={frequency} onChange={(e) => setFrequency(e.target.value as Frequency)}>
              {FREQUENCIES.map((f) => <option key={f} value={f}>{f}</option>)}
            </select>
          </label>
          <Form
            key={frequency}
            fields={[{ name: 'name', label: 'Name', kind: 'text', required: true }, ...FIELDS_BY_FREQUENCY[frequency], ...COMMON_FIELDS]}
            initial={{ atHour: 7, atMinut: 0, everyHours: 1, fromHour: 8, toHour: 18, day: 1, month: 1, timeZone: here, startDate: localInput(now), endDate: localInput(new Date(now.getTime() + 365 * 86400_000)) }}
            submitLabel="Add schedule"
            onSubmit={async (v) => {
              const shown = new Set(FIELDS_BY_FREQUENCY[frequency].map((f) => f.name));
              const pick = (name: string) => (shown.has(name) ? num(v[name]) : null);
              const a = await invoke('v1.taskSchedules.create', {
                params: { taskId: task.id },
                body: {
                  name: text(v.name), frequency, atHour: pick('atHour'), atMinut: pick('atMinut'), weeklyDays: shown.has('weeklyDays') ? ids(v.weeklyDays).join(', ') : null,
                  everyHours: pick('everyHours'), fromHour: pick('fromHour'), fromMinut: shown.has('fromHour') ? 0 : null, toHour: pick('toHour'), toMinut: shown.has('toHour') ? 0 : null,
                  day: pick('day'), month: pick('month'), timeZone: text(v.timeZone), startDate: instant(v.startDate), endDate: instant(v.endDate),
                },
              });
              if (!a.ok) return submitOutcome(a);
              void load();
              return null;
            }}
          />
        </>
      ) : (
        <Form
          key="event"
          fields={[
            { name: 'name', label: 'Name', kind: 'text', required: true },
            { name: 'appId', label: 'When this app reloads', kind: 'select', required: true, options: appOptions },
            { name: 'startDate', label: 'Starts', kind: 'datetime', required: true },
            { name: 'endDate', label: 'Ends', kind: 'datetime', required: true },
          ]}
          initial={{ startDate: localInput(now), endDate: localInput(new Date(now.getTime() + 365 * 86400_000)) }}
          submitLabel="Add reload event"
          onSubmit={async (v) => {
            const a = await invoke('v1.taskExternalEvents.create', { params: { taskId: task.id }, body: { name: text(v.name), appId: text(v.appId), startDate: instant(v.startDate), endDate: instant(v.endDate) } });
            if (!a.ok) return submitOutcome(a);
            void load();
            return null;
          }}
        />
      )}
    </div>
  );
}
