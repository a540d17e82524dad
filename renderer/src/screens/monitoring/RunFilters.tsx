import { useEffect, useId, useState } from 'react';
import { invoke } from '../../bridge';
import { REQUEST_STATUSES } from '../../../../engine/wire';

/** What the runs are narrowed to: a status, a task, a period (dates in the person's own zone). */
export interface RunFilter {
  status: string;
  taskId: string;
  from: string;
  to: string;
}
export const NO_FILTER: RunFilter = { status: '', taskId: '', from: '', to: '' };

const KEYS: (keyof RunFilter)[] = ['status', 'taskId', 'from', 'to'];

/** The filter as the address keeps it (#/monitoring/status=failed&taskId=…): a link or a reload shows the same runs. */
export function filterInAddress(f: RunFilter): string {
  const q = new URLSearchParams();
  for (const k of KEYS) if (f[k]) q.set(k, f[k]);
  return q.toString();
}

/** The filter an address names; anything else in it is ignored. */
export function filterFromAddress(segment: string | undefined): RunFilter {
  const q = new URLSearchParams(segment ?? '');
  const date = (d: string | null) => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : '');
  return {
    status: q.get('status') ?? '',
    taskId: q.get('taskId') ?? '',
    from: date(q.get('from')),
    to: date(q.get('to')),
  };
}

/** The filter as the runs list takes it: the period's ends as instants, the last day included whole. */
export function runQuery(f: RunFilter): Record<string, string> {
  const day = (d: string, plus = 0) => {
    const at = new Date(`${d}T00:00:00`);
    at.setDate(at.getDate() + plus);
    return at.toISOString();
  };
  return {
    status: f.status,
    task_id: f.taskId,
    created_from: f.from ? day(f.from) : '',
    created_to: f.to ? day(f.to, 1) : '',
  };
}

/** Status, task and dates above the runs and their plot; each change narrows both at once. */
export function RunFilters({ value, changed }: { value: RunFilter; changed: (f: RunFilter) => void }) {
  const id = useId();
  const [tasks, setTasks] = useState<{ id: string; name: string }[]>([]);
  useEffect(() => {
    void invoke('v1.tasks.list', { query: { get_all: true } }).then(
      (a) => a.ok && setTasks(a.data.map((t) => ({ id: t.id, name: t.name }))),
    );
  }, []);
  const set = (change: Partial<RunFilter>) => changed({ ...value, ...change });
  const any = value.status || value.taskId || value.from || value.to;
  return (
    <div className="filter-bar" role="group" aria-label="Show runs">
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select id={`${id}-status`} value={value.status} onChange={(e) => set({ status: e.target.value })}>
          <option value="">Any</option>
          {REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-task`}>Task</label>
        <select id={`${id}-task`} value={value.taskId} onChange={(e) => set({ taskId: e.target.value })}>
          <option value="">Any</option>
          {tasks.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-from`}>From</label>
        <input id={`${id}-from`} type="date" value={value.from} onChange={(e) => set({ from: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>To</label>
        <input id={`${id}-to`} type="date" value={value.to} onChange={(e) => set({ to: e.target.value })} />
      </div>
      {any && (
        <button type="button" onClick={() => changed(NO_FILTER)}>
          Clear
        </button>
      )}
    </div>
  );
}
