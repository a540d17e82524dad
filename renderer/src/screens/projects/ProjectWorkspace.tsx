import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import type { ResultOf, RowOf } from '../../../../engine/catalogue';
import { Form } from '../../components/Form';
import { text } from '../../components/options';
import { useNav } from '../../stores/nav/nav.store';
import { ReportDesigner } from '../designer/ReportDesigner';
import { FilterEditor } from '../filters/FilterEditor';

const REPORT_TYPES = ['Word', 'Excel', 'PowerPoint', 'Html'] as const;

const appOptions = async () => {
  const a = await invoke('v1.analyticsApps.list', { query: { get_all: true } });
  return a.ok ? a.data.map((x) => ({ id: x.id, name: x.name })) : [];
};

/** One project: its reports, its connections to analytics apps, and its filters. */
export function ProjectWorkspace({ projectId, reportId, filterId }: { projectId: string; reportId?: string; filterId?: string }) {
  const screenChosen = useNav((s) => s.screenChosen);
  const [project, setProject] = useState<ResultOf<'app.projects.get'> | null>(null);
  const [reports, setReports] = useState<RowOf<'v1.reports.listOwn'>[]>([]);
  const [connections, setConnections] = useState<ResultOf<'app.connections.list'>>([]);
  const [filters, setFilters] = useState<ResultOf<'app.filters.list'>>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const p = await invoke('app.projects.get', { params: { id: projectId } });
    if (!p.ok) return setError(p.error);
    setProject(p.data);
    const [r, c, f] = await Promise.all([
      invoke('v1.reports.listOwn', { query: { project_id: projectId, get_all: true } }),
      invoke('app.connections.list', { query: { projectId } }),
      invoke('app.filters.list', { query: { projectId } }),
    ]);
    setReports(r.ok ? r.data : []);
    setConnections(c.ok ? c.data : []);
    setFilters(f.ok ? f.data : []);
  }, [projectId]);
  // Coming back from a report or a filter shows what changed there.
  useEffect(() => void load(), [load, reportId, filterId]);

  if (error) return <div className="error-banner" role="alert">{error}</div>;
  if (!project) return <p className="empty">Loading…</p>;
  if (reportId) return <ReportDesigner reportId={reportId} projectId={projectId} connections={connections} filters={filters} onBack={() => screenChosen('projects', projectId)} />;
  if (filterId) return <FilterEditor filterId={filterId} onBack={() => screenChosen('projects', projectId)} />;

  return (
    <section className="screen">
      <header className="screen-head">
        <div>
          <a href="#/projects" className="crumb">Projects</a>
          <h1>{project.name}</h1>
        </div>
      </header>
      <div className="columns">
        <div className="panel">
          <h2>Reports</h2>
          <ul className="cards">
            {reports.map((r) => (
              <li key={r.id}>
                <a href={`#/projects/${projectId}/reports/${r.id}`}>{r.name}</a>
                <span className="badge">{r.type}</span>
                {r.isIteration ? <span className="badge">iterates</span> : null}
              </li>
            ))}
            {!reports.length && <li className="empty">No reports yet.</li>}
          </ul>
          <Form
            fields={[
              { name: 'name', label: 'New report name', kind: 'text', required: true },
              { name: 'type', label: 'Type', kind: 'select', required: true, options: async () => REPORT_TYPES.map((t) => ({ id: t, name: t })) },
            ]}
            initial={{ type: 'Word' }}
            submitLabel="Create report"
            onSubmit={async (v) => {
              const a = await invoke('v2.reports.create', { body: { name: text(v.name), projectID: projectId, type: text(v.type) } });
              if (!a.ok) return { error: a.error, errorDetails: a.errorDetails };
              screenChosen('projects', projectId, 'reports', a.data.id);
              return null;
            }}
          />
        </div>
        <div className="panel">
          <h2>Connections</h2>
          <ul className="cards">
            {connections.map((c) => (
              <li key={c.id}>
                {c.name} <span className="badge">{c.appName}</span>
                <button type="button" className="danger small" onClick={async () => { const a = await invoke('app.connections.delete', { params: { id: c.id } }); setError(a.ok ? null : a.error); void load(); }}>Remove</button>
              </li>
            ))}
            {!connections.length && <li className="empty">Connect the project to an analytics app to build reports.</li>}
          </ul>
          <Form
            fields={[{ name: 'name', label: 'Connection name', kind: 'text', required: true }, { name: 'analyticsAppId', label: 'Analytics app', kind: 'select', required: true, options: appOptions }]}
            initial={{}}
            submitLabel="Add connection"
            onSubmit={async (v) => {
              const a = await invoke('app.connections.create', { body: { projectId, name: text(v.name), analyticsAppId: text(v.analyticsAppId) } });
              if (!a.ok) return { error: a.error, errorDetails: a.errorDetails };
              void load();
              return null;
            }}
          />
          <h2 className="spaced">Filters</h2>
          <ul className="cards">
            {filters.map((f) => (
              <li key={f.id}>
                <a href={`#/projects/${projectId}/filters/${f.id}`}>{f.name}</a>
                <span className="badge">{f.values.length} step(s)</span>
              </li>
            ))}
          </ul>
          <Form
            fields={[{ name: 'name', label: 'New filter name', kind: 'text', required: true }]}
            initial={{}}
            submitLabel="Create filter"
            onSubmit={async (v) => {
              const a = await invoke('v2.filters.create', { body: { name: text(v.name), projectID: projectId } });
              if (!a.ok) return { error: a.error, errorDetails: a.errorDetails };
              screenChosen('projects', projectId, 'filters', a.data.id);
              return null;
            }}
          />
        </div>
      </div>
    </section>
  );
}
