import { useCallback, useEffect, useState } from 'react';
import { invoke, onEngineEvent } from '../../../bridge';
import { Form, submitOutcome, type FormValues } from '../../../components/Form';
import { text } from '../../../components/options';
import { toastFailed, toastSucceeded } from '../../../stores/feedback/toasts';
import { selectMayCall, useSession } from '../../../stores/session/session.store';
import type { AppMeta } from './use-analytics-app';
import { ReloadSchedule, type ReloadScheduleRow } from './ReloadSchedule';
import { ReloadsTable } from './ReloadsTable';

interface Reload {
  id: string;
  trigger: 'manual' | 'schedule';
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  startedAt: string;
  durationMs: number | null;
  rows: number | null;
  message: string | null;
}
interface Sources {
  sources: { name: string; connectionId: string; query: string }[];
  reloads: Reload[];
  schedule: ReloadScheduleRow | null;
}

/**
 * Where the app's data comes from when it is not imported by hand: a query on a data connection,
 * Reload now (its progress on the bar the import uses), and the reloads so far with how long they
 * took, how many rows they read, and why one failed.
 */
export function SourcesPanel(props: {
  id: string;
  meta: AppMeta;
  progress: number | null;
  progressed: (percent: number | null) => void;
  reloaded: () => void;
}) {
  const { id, progress, progressed, reloaded } = props;
  const [data, setData] = useState<Sources | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<{ columns: string[]; rows: (string | null)[][] } | null>(null);
  // Choosing a connection lists them, which is a settings right: without it the source is shown, not edited.
  const mayList = useSession(selectMayCall('app.dataConnections.list'));
  const mayChange = useSession(selectMayCall('app.analytics.setSources')) && mayList;
  const mayReload = useSession(selectMayCall('app.analytics.reload'));
  const load = useCallback(async () => {
    const a = await invoke('app.analytics.getSources', { params: { id } });
    setData(a.ok ? (a.data as Sources) : { sources: [], reloads: [], schedule: null });
  }, [id]);
  useEffect(() => void load(), [load]);
  // A reload on its schedule (or another person's) shows as it starts and ends; one that loaded refreshes the app.
  useEffect(
    () =>
      onEngineEvent('analytics.reload.changed', (e) => {
        if (e.appId !== id) return;
        void load();
        if (e.status === 'completed' && e.trigger === 'schedule') reloaded();
      }),
    [id, load, reloaded],
  );
  if (!data) return null;
  const source = data.sources[0];
  const reload = async () => {
    setBusy(true);
    progressed(0);
    const a = await invoke('app.analytics.reload', { params: { id } });
    setBusy(false);
    if (!a.ok) {
      progressed(null);
      toastFailed(a.error ?? 'The reload did not start.');
    } else if (a.data.status === 'completed') {
      // The bar is the import's too: it goes, so it does not read as an import at 100%.
      progressed(null);
      toastSucceeded(`Reloaded ${a.data.rows?.toLocaleString() ?? 0} rows from ${source?.name ?? 'the source'}.`);
      reloaded();
    } else if (a.data.status === 'cancelled') {
      progressed(null);
      toastSucceeded('The reload was cancelled; the data before it is kept.');
    } else {
      progressed(null);
      toastFailed(`The reload failed; the data before it is kept. ${a.data.message ?? ''}`);
    }
    await load();
  };
  return (
    <div className="panel">
      <h2>Data from a database</h2>
      {!mayChange && (
        <>
          <p className="hint">
            {source
              ? `Loaded from “${source.name}” by this query; someone who may see the data connections changes it.`
              : 'No source yet: someone who may see the data connections (Settings) gives the app a query.'}
          </p>
          {source && <pre className="query">{source.query}</pre>}
        </>
      )}
      {mayChange && (
        <Form
          fields={[
            { name: 'name', label: 'Source name', kind: 'text', required: true },
            {
              name: 'connectionId',
              label: 'Data connection',
              kind: 'select',
              required: true,
              options: async () => {
                const a = await invoke('app.dataConnections.list', { query: { get_all: true } });
                return a.ok ? a.data.map((c: { id: string; name: string }) => ({ id: c.id, name: c.name })) : [];
              },
            },
            {
              name: 'query',
              label: 'Query',
              kind: 'textarea',
              required: true,
              hint: 'A SELECT; its columns become the app’s fields. It runs read-only, stopped after 10 minutes. For a folder: the files’ names, such as sales-*.csv, read in name order as one table.',
            },
          ]}
          initial={(source ?? { name: 'data', connectionId: '', query: '' }) as FormValues}
          submitLabel="Save the source"
          onSubmit={async (v) => {
            const a = await invoke('app.analytics.setSources', {
              params: { id },
              body: { sources: [{ name: text(v.name), connectionId: String(v.connectionId), query: text(v.query) }] },
            });
            if (a.ok) {
              setData(a.data as Sources);
              toastSucceeded('The source is saved: Reload now reads it.');
            }
            return submitOutcome(a);
          }}
        />
      )}
      <div className="form-actions">
        {mayChange && (
          <button
            type="button"
            disabled={!source}
            onClick={async () => {
              const a = await invoke('app.analytics.previewSource', {
                params: { id },
                body: { connectionId: source!.connectionId, query: source!.query },
              });
              if (a.ok) setPreview(a.data);
              else toastFailed(a.error ?? 'The query could not be run.');
            }}
          >
            Preview the first 100 rows
          </button>
        )}
        {busy && (
          <button type="button" onClick={() => void invoke('app.analytics.cancelReload', { params: { id } })}>
            Cancel reload
          </button>
        )}
        <button type="button" disabled={!source || busy || !mayReload} onClick={() => void reload()}>
          {busy ? 'Reloading…' : 'Reload now'}
        </button>
      </div>
      {preview && (
        <div className="table-scroll">
          <table aria-label="Preview of the source">
            <thead>
              <tr>
                {preview.columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((v, k) => (
                    <td key={k}>{v ?? ''}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {busy && progress !== null && (
        <div className="progress" role="progressbar" aria-label="Reload progress" aria-valuenow={progress}>
          <div style={{ width: `${progress}%` }} />
          <span>{progress}%</span>
        </div>
      )}
      <ReloadSchedule id={id} schedule={data.schedule} changed={(schedule) => setData({ ...data, schedule })} />
      {data.reloads.length > 0 && <ReloadsTable reloads={data.reloads} label="Reloads" />}
    </div>
  );
}
