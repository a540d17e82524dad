import { useCallback, useEffect, useState } from 'react';
import { inZone } from '../../components/times';
import { invoke, onEngineEvent, upload } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import type { ChartType } from '../../../../engine/analytics/model';
import { Dialog } from '../../components/Dialog';
import { Form, submitOutcome, type FieldDef } from '../../components/Form';
import { text } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome } from '../../stores/feedback/toasts';
import { CHART_KINDS } from '../../../../engine/wire';

type Meta = ResultOf<'app.analytics.get'>;
type Selections = Record<string, string[]>;
const CHART_TYPES: readonly ChartType[] = CHART_KINDS;
type Item = { id: string; name: string };
type Collection = 'Variable' | 'Chart' | 'Bookmark';
const VARIABLE_FIELDS: FieldDef[] = [
  { name: 'name', label: 'Variable name', kind: 'text', required: true },
  {
    name: 'definition',
    label: 'Definition',
    kind: 'text',
    required: true,
    hint: 'For example Sum(Sales) / Count(Distinct Customer)',
  },
];
/** Typing in the value search waits this long for a pause before asking. */
const SEARCH_PAUSE_MS = 200;

/** One analytics app: import data, browse fields and values under selections, define variables, charts and bookmarks. */
export function AppDetail({ id }: { id: string }) {
  const [meta, setMeta] = useState<Meta | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [values, setValues] = useState<ResultOf<'app.analytics.fieldValues'>>([]);
  const [search, setSearch] = useState('');
  const [selections, setSelections] = useState<Selections>({});
  const [varValues, setVarValues] = useState<Record<string, string>>({});
  const [chart, setChart] = useState<string | null>(null);
  const [chartData, setChartData] = useState<ResultOf<'app.analytics.chartData'> | null>(null);
  const [chartPicture, setChartPicture] = useState<string>('');
  const [editingVariable, setEditingVariable] = useState<Meta['variables'][number] | null>(null);
  // The search as typed, and as asked once typing pauses.
  const [query, setQuery] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQuery(search), SEARCH_PAUSE_MS);
    return () => clearTimeout(t);
  }, [search]);

  const load = useCallback(async () => {
    const a = await invoke('app.analytics.get', { params: { id } });
    if (a.ok) setMeta(a.data);
    else setError(a.error);
  }, [id]);
  useEffect(() => void load(), [load]);
  useEffect(
    () =>
      onEngineEvent('analytics.import.progress', (e) => {
        if (e.appId === id) setProgress(e.percent);
      }),
    [id],
  );

  // Values of the chosen field, variables and the chosen chart follow the selections. Answers to an
  // earlier state are dropped (a later selection answered first must not be overwritten by them).
  useEffect(() => {
    if (!meta?.fields.length) return;
    let current = true;
    const keep =
      <T,>(set: (v: T) => void) =>
      (v: T) =>
        current && set(v);
    if (field)
      void invoke('app.analytics.fieldValues', {
        params: { id },
        body: { field, selections, limit: 200, search: query || undefined },
      }).then((a) => keep(setValues)(a.ok ? a.data : []));
    void Promise.all(
      meta.variables.map(
        async (v) =>
          [
            v.name,
            (
              await invoke('app.analytics.evaluate', {
                params: { id },
                body: { expression: `$(${v.name})`, selections },
              })
            ).data?.value,
          ] as const,
      ),
    ).then((pairs) =>
      keep(setVarValues)(
        Object.fromEntries(
          pairs.map(([k, v]) => [
            k,
            typeof v === 'number' ? v.toLocaleString(undefined, { maximumFractionDigits: 2 }) : String(v ?? '—'),
          ]),
        ),
      ),
    );
    if (chart) {
      void invoke('app.analytics.chartData', { params: { id }, body: { chartId: chart, selections } }).then((a) =>
        keep(setChartData)(a.ok ? a.data : null),
      );
      // The SVG comes from the engine's chart renderer (ECharts, text escaped); the page's CSP forbids script.
      void invoke('app.analytics.chartPicture', { params: { id }, body: { chartId: chart, selections } }).then((a) =>
        keep(setChartPicture)(a.ok ? a.data.svg : ''),
      );
    }
    return () => {
      current = false;
    };
  }, [id, meta, field, selections, chart, query]);

  const importFile = async (picker: HTMLInputElement) => {
    const file = picker.files?.[0];
    if (!file) return;
    // The picker names only a file that was loaded: a refused or failed one is not left there
    // (beside the bar of an earlier import) to read as the app's data.
    const forget = () => {
      picker.value = '';
      setProgress(null);
    };
    // Importing replaces every row of the app: asked first whenever there is data to lose.
    if (meta && meta.rowCount > 0) {
      const yes = await askConfirm({
        title: "Replace the app's data?",
        message: `The ${meta.rowCount.toLocaleString()} rows of “${meta.name}” will be replaced by the rows of ${file.name}. Charts, variables and bookmarks stay.`,
        confirmLabel: 'Replace data',
      });
      if (!yes) return forget();
    }
    setError(null);
    setProgress(0);
    const a = await upload('app.analytics.upload', { params: { id }, query: { fileName: file.name } }, file);
    if (a.ok) setProgress(100);
    else forget();
    if (toastOutcome(a, a.ok ? `Imported ${a.data.rowCount.toLocaleString()} rows from ${file.name}.` : ''))
      setMeta(a.data);
  };
  const removeItem = async (kind: Collection, item: Item) => {
    const yes = await askConfirm({
      title: `Delete ${kind.toLowerCase()}?`,
      message: `The ${kind.toLowerCase()} “${item.name}” will be deleted from the app. Reports that use it will name it as missing.`,
      confirmLabel: `Delete ${kind.toLowerCase()}`,
    });
    if (!yes) return;
    const input = { params: { id, itemId: item.id } };
    const a =
      kind === 'Variable'
        ? await invoke('app.analytics.deleteVariable', input)
        : kind === 'Chart'
          ? await invoke('app.analytics.deleteChart', input)
          : await invoke('app.analytics.deleteBookmark', input);
    if (toastOutcome(a, `Deleted ${kind.toLowerCase()} “${item.name}”.`) && kind === 'Chart' && chart === item.id)
      setChart(null);
    void load();
  };
  const removeButton = (kind: Collection, item: Item) => (
    <button
      type="button"
      className="small danger"
      aria-label={`Delete ${kind.toLowerCase()} ${item.name}`}
      onClick={() => void removeItem(kind, item)}
    >
      Delete
    </button>
  );
  const toggle = (f: string, value: string) => {
    const current = selections[f] ?? [];
    const next = current.includes(value) ? current.filter((x) => x !== value) : [...current, value];
    const copy = { ...selections, [f]: next };
    if (!next.length) delete copy[f];
    setSelections(copy);
  };

  if (!meta)
    return error ? (
      <div className="error-banner" role="alert">
        {error}
      </div>
    ) : (
      <p className="empty">Loading…</p>
    );
  return (
    <section className="screen">
      <header className="screen-head">
        <div>
          <a href="#/apps" className="crumb">
            Analytics apps
          </a>
          <h1>{meta.name}</h1>
          <p className="sub">
            {meta.rowCount.toLocaleString()} rows
            {meta.source === 'generated' ? ' of generated sample data' : meta.source ? ` from ${meta.source}` : ''}
            {meta.reloadedAt ? `, loaded ${inZone(meta.reloadedAt)}` : ''}
          </p>
        </div>
      </header>
      {error && (
        <div className="error-banner" role="alert">
          {error}
        </div>
      )}
      <div className="panel">
        <h2>Import data</h2>
        <label className="file-pick">
          CSV, XLSX or JSON file
          <input type="file" accept=".csv,.txt,.tsv,.xlsx,.json" onChange={(e) => void importFile(e.currentTarget)} />
        </label>
        {progress !== null && (
          <div
            className="progress"
            role="progressbar"
            aria-label="Import progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
          >
            <div style={{ width: `${progress}%` }} />
            <span>{progress}%</span>
          </div>
        )}
      </div>
      {Object.keys(selections).length > 0 && (
        <div className="selections" aria-label="Current selections">
          {Object.entries(selections).map(([f, vs]) => (
            <span key={f} className="chip">
              {f}: {vs.join(', ')}
            </span>
          ))}
          <button type="button" className="small" onClick={() => setSelections({})}>
            Clear selections
          </button>
        </div>
      )}
      <div className="columns">
        <div className="panel">
          <h2>Fields</h2>
          <table>
            <thead>
              <tr>
                <th>Field</th>
                <th>Type</th>
                <th>Distinct values</th>
              </tr>
            </thead>
            <tbody>
              {meta.fields.map((f) => (
                <tr
                  key={f.id}
                  className={field === f.name ? 'selected clickable' : 'clickable'}
                  onClick={() => {
                    setField(f.name);
                    setSearch('');
                  }}
                >
                  <td>{f.name}</td>
                  <td>{f.type}</td>
                  <td>{f.distinctCount.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {field && (
            <>
              <h2 className="spaced">Values of {field}</h2>
              <input
                type="search"
                className="filter"
                placeholder={`Search the values of ${field}`}
                aria-label={`Search the values of ${field}`}
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
              <div className="values" role="listbox" aria-label={`Values of ${field}`}>
                {values.map((v) => {
                  const s = String(v.value ?? '');
                  const on = (selections[field] ?? []).includes(s);
                  return (
                    <button
                      type="button"
                      key={s}
                      role="option"
                      aria-selected={on}
                      className={on ? 'value on' : 'value'}
                      onClick={() => toggle(field, s)}
                    >
                      {s || '(empty)'} <small>{v.count.toLocaleString()}</small>
                    </button>
                  );
                })}
              </div>
            </>
          )}
        </div>
        <div className="panel">
          <h2>Variables</h2>
          <table>
            <tbody>
              {meta.variables.map((v) => (
                <tr key={v.id}>
                  <td>
                    <code>{v.name}</code>
                  </td>
                  <td>
                    <code>{v.definition}</code>
                  </td>
                  <td className="num">{varValues[v.name] ?? ''}</td>
                  <td className="actions">
                    <div className="row-actions">
                      <button
                        type="button"
                        aria-label={`Edit variable ${v.name}`}
                        onClick={() => setEditingVariable(v)}
                      >
                        Edit
                      </button>
                      {removeButton('Variable', v)}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {editingVariable && (
            <Dialog title={`Edit variable ${editingVariable.name}`} onClose={() => setEditingVariable(null)}>
              <Form
                fields={VARIABLE_FIELDS}
                initial={{ name: editingVariable.name, definition: editingVariable.definition }}
                submitLabel="Save variable"
                onCancel={() => setEditingVariable(null)}
                onSubmit={async (v) => {
                  // The same variable, changed in place (its id kept): reports that use it by name follow a rename only if they are edited too.
                  const a = await invoke('app.analytics.saveVariable', {
                    params: { id },
                    body: { id: editingVariable.id, name: text(v.name), definition: text(v.definition) },
                  });
                  if (a.ok) {
                    setEditingVariable(null);
                    void load();
                  }
                  return submitOutcome(a);
                }}
              />
            </Dialog>
          )}
          <Form
            fields={VARIABLE_FIELDS}
            initial={{}}
            submitLabel="Add variable"
            clearOnSuccess
            onSubmit={async (v) => {
              const a = await invoke('app.analytics.saveVariable', {
                params: { id },
                body: { name: text(v.name), definition: text(v.definition) },
              });
              if (a.ok) void load();
              return submitOutcome(a);
            }}
          />
          <h2 className="spaced">Charts</h2>
          <ul className="cards">
            {meta.charts.map((c) => (
              <li key={c.id} className={chart === c.id ? 'selected' : ''}>
                <button type="button" className="link" onClick={() => setChart(c.id)}>
                  {c.name}
                </button>{' '}
                <span className="badge">{c.type}</span>
                <span className="card-actions">{removeButton('Chart', c)}</span>
              </li>
            ))}
          </ul>
          {chartPicture && chart && (
            <figure className="chart-picture" aria-label="Chart" dangerouslySetInnerHTML={{ __html: chartPicture }} />
          )}
          {chartData && chart && (
            <table aria-label="Chart data">
              <thead>
                <tr>
                  {[...chartData.dimensions, ...chartData.measures].map((h) => (
                    <th key={h}>{h}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {chartData.rows.slice(0, 20).map((r, i) => (
                  <tr key={i}>
                    {r.map((v, k) => (
                      <td key={k} className={typeof v === 'number' ? 'num' : ''}>
                        {typeof v === 'number'
                          ? v.toLocaleString(undefined, { maximumFractionDigits: 2 })
                          : String(v ?? '')}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Form
            fields={[
              { name: 'name', label: 'Chart name', kind: 'text', required: true },
              { name: 'type', label: 'Type', kind: 'select', required: true, choices: CHART_TYPES },
              {
                name: 'dimension',
                label: 'Dimension',
                kind: 'select',
                required: true,
                options: async () => meta.fields.map((f) => ({ id: f.name, name: f.name })),
              },
              {
                name: 'measure',
                label: 'Measure',
                kind: 'text',
                required: true,
                hint: 'An expression such as Sum(Sales)',
              },
            ]}
            initial={{ type: 'bar' }}
            submitLabel="Add chart"
            clearOnSuccess
            onSubmit={async (v) => {
              const type = CHART_TYPES.find((t) => t === v.type) ?? 'bar';
              const a = await invoke('app.analytics.saveChart', {
                params: { id },
                body: {
                  name: text(v.name),
                  type,
                  dimensions: v.dimension ? [text(v.dimension)] : [],
                  measures: [{ label: text(v.measure), expression: text(v.measure) }],
                },
              });
              if (!a.ok)
                return {
                  error: a.error,
                  errorDetails: (a.errorDetails ?? []).map((d) => ({
                    ...d,
                    field: d.field
                      .replace(/^body\.measures\.0\.expression$/, 'body.measure')
                      .replace(/^body\.dimensions$/, 'body.dimension'),
                  })),
                };
              await load();
              setChart(a.data.id);
              return null;
            }}
          />
          <h2 className="spaced">Bookmarks</h2>
          <ul className="cards">
            {meta.bookmarks.map((b) => (
              <li key={b.id}>
                <button type="button" className="link" onClick={() => setSelections(b.selections)}>
                  {b.name}
                </button>
                <small className="hint">
                  {' '}
                  {Object.entries(b.selections)
                    .map(([f, v]) => `${f}: ${v.join(', ')}`)
                    .join('; ')}
                </small>
                <span className="card-actions">{removeButton('Bookmark', b)}</span>
              </li>
            ))}
          </ul>
          <Form
            fields={[{ name: 'name', label: 'Save current selections as', kind: 'text', required: true }]}
            initial={{}}
            submitLabel="Save bookmark"
            clearOnSuccess
            onSubmit={async (v) => {
              const a = await invoke('app.analytics.saveBookmark', {
                params: { id },
                body: { name: text(v.name), selections },
              });
              if (a.ok) void load();
              return submitOutcome(a);
            }}
          />
        </div>
      </div>
    </section>
  );
}
