import { useState } from 'react';
import { invoke } from '../../../bridge';
import type { ResultOf } from '../../../../../engine/catalogue';
import { Dialog } from '../../../components/Dialog';
import { Form, submitOutcome, type FieldDef } from '../../../components/Form';
import {
  FIELDS_BY_FREQUENCY,
  FrequencySelect,
  NextRuns,
  PERIOD,
  TIME_ZONE_FIELD,
  scheduleFormValues,
  scheduleForms,
  scheduleProblems,
  type Frequency,
} from '../../../components/schedule-forms';
import { flag, type FormValues } from '../../../components/options';
import { toastSucceeded } from '../../../stores/feedback/toasts';
import { selectMayCall, useSession } from '../../../stores/session/session.store';

/** An app's reload schedule as the engine answers it (null: it reloads only when asked). */
export type ReloadScheduleRow = ResultOf<'app.analytics.setReloadSchedule'>;

const fieldsOf = (f: Frequency): FieldDef[] => [...FIELDS_BY_FREQUENCY[f], TIME_ZONE_FIELD, ...PERIOD];

const formOf = (s: ReloadScheduleRow | null): FormValues =>
  scheduleFormValues(s, { atHour: 6, fromHour: 6, toHour: 20 });

/**
 * When the app reloads by itself: the forms of a task's schedule, its sentence and next runs as the
 * engine reads them. A designer who may change the app sets it; others see it.
 */
export function ReloadSchedule(props: {
  id: string;
  schedule: ReloadScheduleRow | null;
  changed: (s: ReloadScheduleRow) => void;
}) {
  const { id, schedule, changed } = props;
  const maySet = useSession(selectMayCall('app.analytics.setReloadSchedule'));
  const [open, setOpen] = useState(false);
  const [frequency, setFrequency] = useState<Frequency>((schedule?.frequency as Frequency) ?? 'Daily');
  const edit = () => {
    setFrequency((schedule?.frequency as Frequency) ?? 'Daily');
    setOpen(true);
  };
  return (
    <section aria-label="Reload schedule">
      <h3>On a schedule</h3>
      <p className="hint">
        {!schedule
          ? 'Reloads only when asked: set a schedule to keep the data fresh by itself.'
          : schedule.isActive
            ? `${schedule.summary ?? 'On a schedule'}.`
            : `Off (${schedule.summary ?? 'a schedule'}): it reloads only when asked.`}
      </p>
      {schedule?.isActive && schedule.nextRuns.length > 0 && <NextRuns stored={schedule} />}
      {maySet && (
        <button type="button" className="small" onClick={edit}>
          {schedule ? 'Change the schedule' : 'Set a schedule'}
        </button>
      )}
      {open && (
        <Dialog title="Reload schedule" onClose={() => setOpen(false)}>
          <FrequencySelect id="reload-frequency" value={frequency} changed={setFrequency} />
          <Form
            key={frequency}
            fields={fieldsOf(frequency)}
            initial={formOf(schedule)}
            submitLabel="Save the schedule"
            onCancel={() => setOpen(false)}
            onSubmit={async (v) => {
              const problems = scheduleProblems(v, frequency);
              if (problems.length) return { error: 'Check the fields marked', errorDetails: problems };
              const a = await invoke('app.analytics.setReloadSchedule', {
                params: { id },
                body: { ...scheduleForms(v, frequency), isActive: flag(v.isActive) },
              });
              if (a.ok) {
                changed(a.data as ReloadScheduleRow);
                setOpen(false);
                toastSucceeded(
                  a.data.isActive
                    ? `Reload schedule saved: ${a.data.summary ?? 'on'}.`
                    : 'The schedule is off: the app reloads only when asked.',
                );
              }
              return submitOutcome(a);
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
