import { useCallback, useEffect, useState } from 'react';
import { invoke, type FieldError } from '../../../bridge';
import { onEngineEvent } from '../../../engine-events';
import { Form, submitOutcome } from '../../../components/Form';
import { text } from '../../../components/options';
import { toastFailed, toastSucceeded } from '../../../stores/feedback/toasts';
import { selectMayCall, useSession } from '../../../stores/session/session.store';
import type { AppMeta } from './use-analytics-app';
import { ReloadSchedule, type ReloadScheduleRow } from './ReloadSchedule';
import { ReloadsTable } from './ReloadsTable';
import { SourcesList, type Source } from './SourcesList';
import { askConfirm } from '../../../stores/feedback/confirm.store';

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
  sources: Source[];
  reloads: Reload[];
  schedule: ReloadScheduleRow | null;
}

/** How several sources make one app's data, said where they are listed. */
const SEVERAL =
  'The first source holds the facts, a row each. A later source with the same columns adds its rows; one that shares some columns (a key such as Region) adds its other columns to each row with the same values.';

/** The engine names a source's field by its place in the list; the form shows one source. */
const asFormErrors = (details: FieldError[], index: number) =>
  details.map((d) => ({ ...d, field: d.field.replace(`body.sources[${index}].`, 'body.') }));

/**
 * Where the app's data comes from when it is not imported by hand: queries on data connections,
 * associated into one table (the first the facts, the others adding rows or columns), each change
 * saved as the whole list; Reload now (its progress on the bar the import uses), and the reloads so
 * far with how long they took, how many rows they read, and why one failed.
 */
export function SourcesPanel(props: {
  id: string;
  meta: AppMeta;
  progress: number | null;
  progressed: (percent: number | null) => void;
  reloaded: () => void;
}) {
  const { id, meta, progress, progressed, reloaded } = props;
  const [data, setData] = useState<Sources | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<{ name: string; columns: string[]; rows: (string | null)[][] } | null>(null);
  /** The source being edited: its place in the list, or the list's length for a new one. */
  const [editing, setEditing] = useState<number | null>(null);
  const [connections, setConnections] = useState<{ id: string; name: string }[]>([]);
  // Choosing a connection lists them, which is a settings right: without it the sources are shown, not edited.
  const mayList = useSession(selectMayCall('app.dataConnections.list'));
  const mayChange = useSession(selectMayCall('app.analytics.setSources')) && mayList;
  const mayPreview = useSession(selectMayCall('app.analytics.previewSource'));
  const mayReload = useSession(selectMayCall('app.analytics.reload'));
  const load = useCallback(async () => {
    const a = await invoke('app.analytics.getSources', { params: { id } });
    setData(a.ok ? (a.data as Sources) : { sources: [], reloads: [], schedule: null });
  }, [id]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (!mayList) return;
    void invoke('app.dataConnections.list', { query: { get_all: true } }).then((a) => {
      if (a.ok) setConnections(a.data.map((c: { id: string; name: string }) => ({ id: c.id, name: c.name })));
    });
  }, [mayList]);
  // A reload on its schedule (or another person's) shows as it starts and ends; one that loaded refreshes the app.
  useEffect(
    () =>
      onEngineEvent(
        'analytics.reload.changed',
        (e) => {
          if (e.appId !== id) return;
          void load();
          if (e.status === 'completed' && e.trigger === 'schedule') reloaded();
        },
        () => void load(),
      ),
    [id, load, reloaded],
  );
  if (!data) return null;
  const sources = data.sources;
  const connectionName = (cid: string) => connections.find((c) => c.id === cid)?.name ?? '—';
  /** Saves the whole list at once (one call, all or nothing) and shows what the engine stored. */
  const save = async (next: Source[], done: string) => {
    const a = await invoke('app.analytics.setSources', { params: { id }, body: { sources: next } });
    if (a.ok) {
      setData(a.data as Sources);
      setEditing(null);
      toastSucceeded(done);
    }
    return a;
  };
  /** A change made from the list (remove, move up): a refusal is said in a toast, as no form shows it. */
  const saveFromList = async (next: Source[], done: string) => {
    const a = await save(next, done);
    if (!a.ok) toastFailed(a.error ?? 'The sources could not be saved.');
  };
  const showPreview = async (src: Source) => {
    const a = await invoke('app.analytics.previewSource', {
      params: { id },
      body: { connectionId: src.connectionId, query: src.query },
    });
    if (a.ok) setPreview({ name: src.name, ...a.data });
    else toastFailed(a.error ?? 'The query could not be run.');
  };
  const remove = async (index: number) => {
    const gone = sources[index];
    const yes = await askConfirm({
      title: `Remove the source “${gone.name}”?`,
      message:
        sources.length === 1
          ? 'The app keeps the data it has until it is reloaded or imported; it has no source to reload from.'
          : 'The next reload leaves its rows or columns out; charts, variables and reports using them need a look.',
      confirmLabel: 'Remove source',
    });
    if (!yes) return;
    await saveFromList(
      sources.filter((_, i) => i !== index),
      `The source “${gone.name}” is removed.`,
    );
  };
  const moveUp = async (index: number) => {
    const next = [...sources];
    [next[index - 1], next[index]] = [next[index], next[index - 1]];
    await saveFromList(next, `“${sources[index].name}” now loads before “${sources[index - 1].name}”.`);
  };
  const edited = editing === null ? null : (sources[editing] ?? null);
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
      toastSucceeded(
        `Reloaded ${a.data.rows?.toLocaleString() ?? 0} rows from ${sources.map((x) => x.name).join(', ')}.`,
      );
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
      {sources.length === 0 && !mayChange && (
        <p className="hint">
          No source yet: someone who may see the data connections (Data connections, in the menu) gives the app a query.
        </p>
      )}
      {sources.length > 0 && (
        <SourcesList
          sources={sources}
          connectionName={connectionName}
          mayChange={mayChange}
          mayPreview={mayPreview}
          preview={(src) => void showPreview(src)}
          edit={setEditing}
          remove={(i) => void remove(i)}
          moveUp={(i) => void moveUp(i)}
        />
      )}
      {sources.length > 1 && <p className="hint">{SEVERAL}</p>}
      {mayChange && (sources.length === 0 || editing !== null) && (
        <section aria-label={edited ? `Edit the source ${edited.name}` : 'Add a source'}>
          <h3>{edited ? `Edit “${edited.name}”` : sources.length ? 'Add a source' : 'The source'}</h3>
          <Form
            key={editing ?? 'first'}
            fields={[
              { name: 'name', label: 'Source name', kind: 'text', required: true },
              {
                name: 'connectionId',
                label: 'Data connection',
                kind: 'select',
                required: true,
                choices: connections,
              },
              {
                name: 'query',
                label: 'Query',
                kind: 'textarea',
                required: true,
                hint: 'A SELECT; its columns become the app’s fields. It runs read-only, stopped after 10 minutes. For a folder: the files’ names, such as sales-*.csv, read in name order as one table.',
              },
            ]}
            initial={{ ...(edited ?? { name: sources.length ? '' : 'data', connectionId: '', query: '' }) }}
            submitLabel="Save the source"
            onCancel={sources.length ? () => setEditing(null) : undefined}
            onSubmit={async (v) => {
              const at = editing ?? sources.length;
              const one = { name: text(v.name), connectionId: String(v.connectionId), query: text(v.query) };
              const next = [...sources.slice(0, at), one, ...sources.slice(at + 1)];
              const a = await save(next, 'The source is saved: Reload now reads it.');
              return submitOutcome(a.ok ? a : { ...a, errorDetails: asFormErrors(a.errorDetails, at) });
            }}
          />
        </section>
      )}
      <div className="form-actions">
        {mayChange && sources.length > 0 && editing === null && (
          <button type="button" onClick={() => setEditing(sources.length)}>
            Add a source
          </button>
        )}
        {busy && (
          <button type="button" onClick={() => void invoke('app.analytics.cancelReload', { params: { id } })}>
            Cancel reload
          </button>
        )}
        <button
          type="button"
          disabled={!sources.length || busy || !mayReload}
          aria-describedby={!sources.length ? 'reload-why' : undefined}
          onClick={() => void reload()}
        >
          {busy ? 'Reloading…' : 'Reload now'}
        </button>
      </div>
      {!sources.length && (
        <p className="hint" id="reload-why">
          {meta.source === 'generated'
            ? 'Reload now reads the app’s sources: this app holds generated sample data and has none. Add a source to read a database, or import a file.'
            : 'Reload now reads the app’s sources: add one first.'}
        </p>
      )}
      {preview && <h3>First rows of “{preview.name}”</h3>}
      {preview && (
        <div className="table-scroll">
          <table aria-label={`Preview of ${preview.name}`}>
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
          {/* Until the first rows arrive there is no percentage: what is being done is said instead. */}
          <span>{progress === 0 ? 'Running the queries…' : `${progress}% loaded`}</span>
        </div>
      )}
      <ReloadSchedule id={id} schedule={data.schedule} changed={(schedule) => setData({ ...data, schedule })} />
      {data.reloads.length > 0 && <ReloadsTable reloads={data.reloads} label="Reloads" />}
    </div>
  );
}
