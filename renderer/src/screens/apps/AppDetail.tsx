import { useEffect, useState } from 'react';
import { inZone } from '../../components/times';
import { useAnalyticsApp } from './detail/use-analytics-app';
import { useSelectionAnswers, type Selections } from './detail/use-selection-answers';
import { ImportPanel } from './detail/ImportPanel';
import { SourcesPanel } from './detail/SourcesPanel';
import { FieldsPanel } from './detail/FieldsPanel';
import { VariablesPanel } from './detail/VariablesPanel';
import { ChartsPanel } from './detail/ChartsPanel';
import { BookmarksPanel } from './detail/BookmarksPanel';
import { MayChangeAppProvider, useAppAccess } from './detail/app-change';

/** Typing in the value search waits this long for a pause before asking. */
const SEARCH_PAUSE_MS = 200;

/** The search as typed, and as asked once typing pauses. */
function usePausedSearch() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQuery(search), SEARCH_PAUSE_MS);
    return () => clearTimeout(t);
  }, [search]);
  return { search, setSearch, query };
}

/** One analytics app: import data, browse fields and values under selections, define variables, charts and bookmarks. */
export function AppDetail({ id }: { id: string }) {
  const { meta, setMeta, error, setError, progress, setProgress, load } = useAnalyticsApp(id);
  const [field, setField] = useState<string | null>(null);
  const [selections, setSelections] = useState<Selections>({});
  const [chart, setChart] = useState<string | null>(null);
  const { search, setSearch, query } = usePausedSearch();
  const access = useAppAccess(id);
  const mayChange = access?.mayChange === true;
  const { values, varValues, chartData, chartPicture } = useSelectionAnswers(id, meta, {
    field,
    selections,
    chart,
    search: query,
  });
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
    <MayChangeAppProvider value={mayChange}>
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
        {access && !mayChange && (
          <p className="hint" id="app-view-only" role="note">
            You may read this app, not change it: {access.why}.
          </p>
        )}
        {mayChange && (
          <ImportPanel
            id={id}
            meta={meta}
            progress={progress}
            progressed={setProgress}
            started={() => setError(null)}
            imported={setMeta}
          />
        )}
        {/* Where the data comes from is worth reading to anyone; changing it is offered to whom may. */}
        <fieldset className="plain" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'app-view-only'}>
          <legend className="sr-only">Data sources</legend>
          <SourcesPanel id={id} meta={meta} progress={progress} progressed={setProgress} reloaded={load} />
        </fieldset>
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
          <FieldsPanel
            meta={meta}
            field={field}
            chosen={(f) => {
              setField(f);
              setSearch('');
            }}
            search={search}
            searched={setSearch}
            values={values}
            selections={selections}
            toggled={toggle}
          />
          <div className="panel">
            <VariablesPanel id={id} meta={meta} varValues={varValues} changed={() => void load()} />
            <ChartsPanel
              id={id}
              meta={meta}
              chart={chart}
              chosen={setChart}
              chartData={chartData}
              chartPicture={chartPicture}
              changed={load}
            />
            <BookmarksPanel
              id={id}
              meta={meta}
              selections={selections}
              applied={setSelections}
              changed={() => void load()}
            />
          </div>
        </div>
      </section>
    </MayChangeAppProvider>
  );
}
