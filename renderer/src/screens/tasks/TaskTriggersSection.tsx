import { useEffect, useMemo, useState } from 'react';
import { invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { Form, type FieldDef, type Option, type SubmitOutcome } from '../../components/Form';
import {
  FIELDS_BY_FREQUENCY,
  FrequencySelect,
  NextRuns,
  PERIOD,
  TIME_ZONE_FIELD,
  periodProblems,
  scheduleFormValues,
  scheduleForms,
  scheduleProblems,
  type Frequency,
} from '../../components/schedule-forms';
import { flag, text, type FormValues } from '../../components/options';
import { inZone } from '../../components/times';
import { scheduleBody, type SaveProblems } from './save-task-draft';
import { newKey, triggerItemOf, type TriggerItem } from './task-draft';

type StoredTrigger = RowOf<'v1.taskTriggers.list'>;
const scheduleFields = (f: Frequency): FieldDef[] => [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  ...FIELDS_BY_FREQUENCY[f],
  TIME_ZONE_FIELD,
  ...PERIOD,
];
const appOptions = async (): Promise<Option[]> => {
  const a = await invoke('v1.analyticsApps.list', { query: { get_all: true } });
  return a.ok ? a.data.map((x) => ({ id: x.appId, name: x.name })) : [];
};
const EVENT_FIELDS: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'appId', label: 'When this app reloads', kind: 'select', required: true, options: appOptions },
  ...PERIOD,
];

const formOf = (t: TriggerItem | null): FormValues => scheduleFormValues(t, { atHour: 7, fromHour: 8, toHour: 18 });

/** The dialog's values as a trigger of the draft, or the problems beside its fields (as the engine checks them). */
function triggerOf(
  v: FormValues,
  was: TriggerItem | null,
  type: TriggerItem['type'],
  frequency: Frequency,
  others: TriggerItem[],
): TriggerItem | SubmitOutcome {
  const problems: { field: string; message: string }[] = [];
  if (!text(v.name).trim()) problems.push({ field: 'name', message: 'is required' });
  else if (others.some((o) => o.name.trim().toLowerCase() === text(v.name).trim().toLowerCase()))
    problems.push({ field: 'name', message: 'is already the name of another trigger of this task' });
  problems.push(...(type === 'Schedule' ? scheduleProblems(v, frequency) : periodProblems(v)));
  if (type === 'ExternalEvent' && !v.appId) problems.push({ field: 'appId', message: 'is required' });
  if (problems.length) return { error: 'Check the fields marked', errorDetails: problems };
  return {
    key: was?.key ?? newKey(),
    type,
    name: text(v.name).trim(),
    isActive: flag(v.isActive),
    ...(type === 'Schedule'
      ? scheduleForms(v, frequency)
      : { ...scheduleForms(v, 'Once'), frequency: null, timeZone: was?.timeZone ?? null }),
    appId: type === 'ExternalEvent' ? text(v.appId) : null,
    description: was?.description ?? null,
    execution: was?.execution ?? null,
    priority: was?.priority ?? null,
  };
}

/**
 * A schedule changed in the draft, as it will run once saved: the engine reads it with the rules
 * that will fire it (asked again when it changes), so the sentence shows before Save.
 */
function SchedulePreview({ item }: { item: TriggerItem }) {
  const [preview, setPreview] = useState<{ summary: string; nextRuns: string[] } | string | null>(null);
  const body = JSON.stringify(scheduleBody(item));
  useEffect(() => {
    let current = true;
    void invoke('app.schedules.preview', { body: JSON.parse(body) }).then((a) => {
      if (current) setPreview(a.ok ? a.data : (a.error ?? 'It could not be read'));
    });
    return () => {
      current = false;
    };
  }, [body]);
  if (preview === null) return <span>Reading the schedule…</span>;
  if (typeof preview === 'string') return <span>Not saved yet: {preview}</span>;
  return (
    <>
      <span>{preview.summary} (not saved yet).</span>
      {preview.nextRuns.length > 0 && <NextRuns stored={{ timeZone: item.timeZone, nextRuns: preview.nextRuns }} />}
    </>
  );
}

/** When a task runs: schedules (with their sentence and next five runs, zone named) and app reloads, edited in place. */
export function TaskTriggersSection({
  items,
  stored,
  problems,
  edited,
}: {
  items: TriggerItem[];
  stored: Record<string, StoredTrigger>;
  problems: SaveProblems;
  edited: (items: TriggerItem[]) => void;
}) {
  const [open, setOpen] = useState<{ item: TriggerItem | null; type: TriggerItem['type'] } | null>(null);
  const [frequency, setFrequency] = useState<Frequency>('Daily');
  const fields = useMemo(
    () => (open?.type === 'ExternalEvent' ? EVENT_FIELDS : scheduleFields(frequency)),
    [open, frequency],
  );
  const start = (item: TriggerItem | null, type: TriggerItem['type']) => {
    setFrequency((item?.frequency as Frequency) ?? 'Daily');
    setOpen({ item, type });
  };
  return (
    <div className="panel">
      <div className="block-head">
        <h2>When it runs</h2>
        <span className="card-actions">
          <button type="button" className="small" onClick={() => start(null, 'Schedule')}>
            Add schedule
          </button>
          <button type="button" className="small" onClick={() => start(null, 'ExternalEvent')}>
            Add reload event
          </button>
        </span>
      </div>
      <ul className="cards">
        {items.map((t) => {
          const saved = stored[t.key];
          // The sentence and next runs are the engine's: shown only while the draft holds the trigger as saved.
          const unchanged = !!saved && JSON.stringify(triggerItemOf(saved)) === JSON.stringify(t);
          return (
            <li key={t.key} className={problems[t.key] ? 'stacked invalid' : 'stacked'}>
              <strong>{t.name}</strong>{' '}
              <span className="badge">{t.type === 'Schedule' ? 'schedule' : 'on reload'}</span>
              {!t.isActive && <span className="badge">off</span>}
              <span className="card-actions">
                <button
                  type="button"
                  className="small"
                  aria-label={`Edit trigger ${t.name}`}
                  onClick={() => start(t, t.type)}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="small danger"
                  aria-label={`Delete trigger ${t.name}`}
                  onClick={() => edited(items.filter((x) => x.key !== t.key))}
                >
                  Delete
                </button>
              </span>
              <div className="hint">
                {saved && unchanged ? (
                  `${saved.summary ?? `When the app ${saved.appId} reloads`}.`
                ) : t.type === 'Schedule' ? (
                  <SchedulePreview item={t} />
                ) : (
                  `When the app ${t.appId ?? ''} reloads (not saved yet).`
                )}
                {` From ${inZone(t.startDate)}${t.endDate ? ` until ${inZone(t.endDate)}` : ', no end date'}.`}
              </div>
              {saved && unchanged && saved.nextRuns.length > 0 && <NextRuns stored={saved} />}
              {problems[t.key] && <div className="field-error">{problems[t.key]}</div>}
            </li>
          );
        })}
        {items.length === 0 && (
          <li className="empty">Runs only when started by hand: add a schedule or a reload event.</li>
        )}
      </ul>
      {open && (
        <Dialog
          title={
            open.item ? `Edit ${open.item.name}` : open.type === 'Schedule' ? 'Add a schedule' : 'Add a reload event'
          }
          onClose={() => setOpen(null)}
        >
          {open.type === 'Schedule' && (
            <FrequencySelect id="schedule-frequency" value={frequency} changed={setFrequency} />
          )}
          <Form
            key={`${open.type}-${frequency}`}
            fields={fields}
            initial={formOf(open.item)}
            submitLabel={open.item ? 'Apply' : open.type === 'Schedule' ? 'Add schedule' : 'Add reload event'}
            onCancel={() => setOpen(null)}
            onSubmit={async (v) => {
              const next = triggerOf(
                v,
                open.item,
                open.type,
                frequency,
                items.filter((x) => x.key !== open.item?.key),
              );
              if (!next || !('key' in next)) return next;
              edited(open.item ? items.map((x) => (x.key === next.key ? next : x)) : [...items, next]);
              setOpen(null);
              return null;
            }}
          />
        </Dialog>
      )}
    </div>
  );
}
