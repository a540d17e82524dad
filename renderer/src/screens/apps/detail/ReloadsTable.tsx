import { inZone } from '../../../components/times';
import { hashOf } from '../../../stores/nav/nav.store';

/** A reload as the lists answer it (with its app on the monitoring screen). */
export interface ReloadRow {
  id: string;
  trigger: string;
  status: string;
  startedAt: string;
  durationMs: number | null;
  rows: number | null;
  message: string | null;
  appId?: string;
  appName?: string;
}

const seconds = (ms: number | null) => (ms === null ? '' : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);
const tone = (status: string) => (status === 'failed' ? 'failed' : status === 'completed' ? 'completed' : 'warning');

/** Reloads, newest first: when, how they were started, how long they took, their rows, why one failed. */
export function ReloadsTable({ reloads, label, withApp }: { reloads: ReloadRow[]; label: string; withApp?: boolean }) {
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          {withApp && <th>App</th>}
          <th>When</th>
          <th>Started</th>
          <th>Took</th>
          <th>Rows</th>
          <th>Outcome</th>
        </tr>
      </thead>
      <tbody>
        {reloads.map((r) => (
          <tr key={r.id}>
            {withApp && (
              <td>
                <a href={hashOf('apps', [r.appId ?? ''])}>{r.appName}</a>
              </td>
            )}
            <td>{inZone(r.startedAt)}</td>
            <td>{r.trigger === 'schedule' ? 'by the schedule' : 'by hand'}</td>
            <td>{seconds(r.durationMs)}</td>
            <td>{r.rows?.toLocaleString() ?? ''}</td>
            <td>
              <span className={`status status-${tone(r.status)}`}>{r.status}</span>
              {r.message ? <div className="hint">{r.message}</div> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
