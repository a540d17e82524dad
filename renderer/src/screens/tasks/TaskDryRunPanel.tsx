import { useState } from 'react';
import { invoke } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import { toastFailed } from '../../stores/feedback/toasts';

type DryRun = ResultOf<'app.tasks.dryRun'>;

/** What a report's conditions answer on today's data, in the sentence of what each gets. */
const CONDITIONS_NOW = {
  hold: 'they hold now',
  fail: 'they fail now: it would be left out',
  perValue: 'asked of each iteration value when the task runs; test one value on the condition’s page',
} as const;

/** "Who gets what?": the saved task's recipients as a run would reach them, before anything is sent. */
export function TaskDryRunPanel({
  taskId,
  dirty,
  save,
}: {
  taskId: string;
  dirty: boolean;
  /** Writes the draft first (the dry run reads the saved task); absent for someone who may not save. */
  save?: () => Promise<boolean>;
}) {
  const [dry, setDry] = useState<DryRun | null>(null);
  const [busy, setBusy] = useState(false);
  const check = async () => {
    // What is checked is what the page shows: unsaved changes are saved first, as Run now asks to.
    if (dirty && save && !(await save())) return;
    setBusy(true);
    const a = await invoke('app.tasks.dryRun', { params: { id: taskId } });
    setBusy(false);
    if (a.ok) setDry(a.data);
    else toastFailed(a.error ?? 'The dry run could not be made');
  };
  return (
    <div className="panel dry-run">
      <div className="block-head">
        <h2>Who gets what</h2>
        <button type="button" onClick={() => void check()} disabled={busy}>
          {busy ? 'Checking…' : dirty && save ? 'Save and check' : dry ? 'Check again' : 'Check before sending'}
        </button>
      </div>
      {dirty && (
        <p className="hint" role="note">
          {save
            ? 'Your changes are saved first, so the check reads what this page shows.'
            : 'This checks the saved task, without the changes on this page.'}
        </p>
      )}
      {!dry && (
        <p className="empty">
          See who a run would mail, who would see the files in the hub, and why anyone is left out. Nothing is sent.
        </p>
      )}
      {dry && (
        <>
          {dry.warnings.map((w) => (
            <p key={w} className="error-banner">
              {w}
            </p>
          ))}
          {/* How the task works, not a fault: said plainly, not in red. */}
          {dry.information.map((w) => (
            <p key={w} className="notice" role="note">
              {w}
            </p>
          ))}
          <p className="status-line">
            Each gets:{' '}
            {dry.files.length
              ? dry.files
                  .map(
                    (f) =>
                      `${f.report} as ${f.format}${f.perIterationValue ? ' (one file per iteration value)' : ''}${f.conditions ? ` if its conditions hold (${CONDITIONS_NOW[f.conditionsNow ?? 'perValue']})` : ''}`,
                  )
                  .join('; ')
              : 'nothing (no reports)'}
          </p>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th>Recipient</th>
                  <th>Through</th>
                  <th>By e-mail</th>
                  <th>In the hub</th>
                  <th>Notes</th>
                </tr>
              </thead>
              <tbody>
                {dry.recipients.map((r) => (
                  <tr key={`${r.name}-${r.email ?? ''}`}>
                    <td>
                      {r.name}
                      {r.email && r.email !== r.name ? <div className="hint">{r.email}</div> : null}
                    </td>
                    <td>{r.via.join(', ')}</td>
                    <td>{r.byEmail ? 'Yes' : 'No'}</td>
                    <td>{r.inHub ? 'Yes' : 'No'}</td>
                    <td>{r.notes.join('; ')}</td>
                  </tr>
                ))}
                {!dry.recipients.length && (
                  <tr>
                    <td colSpan={5} className="empty">
                      Nobody: add recipients to the task.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
