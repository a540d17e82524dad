import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import type { ResultOf, RowOf } from '../../../../engine/catalogue';
import { Form, submitOutcome } from '../../components/Form';
import { Dialog } from '../../components/Dialog';
import { orNull, text } from '../../components/options';
import { useNav } from '../../stores/nav/nav.store';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome } from '../../stores/feedback/toasts';
import { REPORT_TYPES } from '../../../../engine/wire';
import { ReportDesigner } from '../designer/ReportDesigner';
import { NewTemplateReport } from './NewTemplateReport';
import { FilterEditor } from '../filters/FilterEditor';
import { PermissionsDialog, type PermissionKind } from '../../components/PermissionsDialog';
import { useProjectAccess } from '../../hooks/useProjectAccess';

type ReportRow = RowOf<'v1.reports.listOwn'>;

const appOptions = async () => {
  const a = await invoke('v1.analyticsApps.list', { query: { get_all: true } });
  return a.ok ? a.data.map((x) => ({ id: x.id, name: x.name })) : [];
};

/** An object's Permissions and Delete buttons, each only where the caller may use it. */
function ShareAndDelete(p: {
  label: string;
  share: boolean | null;
  remove: boolean | null;
  onShare: () => void;
  onRemove: () => void;
}) {
  return (
    <>
      {p.share && (
        <button type="button" className="small" onClick={p.onShare} aria-label={`Permissions of ${p.label}`}>
          Permissions
        </button>
      )}
      {p.remove && (
        <button type="button" className="small danger" onClick={p.onRemove} aria-label={`Delete ${p.label}`}>
          Delete
        </button>
      )}
    </>
  );
}

/** One project: its reports, its connections to analytics apps, and its filters. */
export function ProjectWorkspace({
  projectId,
  reportId,
  filterId,
}: {
  projectId: string;
  reportId?: string;
  filterId?: string;
}) {
  const screenChosen = useNav((s) => s.screenChosen);
  const [project, setProject] = useState<ResultOf<'app.projects.get'> | null>(null);
  const [reports, setReports] = useState<RowOf<'v1.reports.listOwn'>[]>([]);
  const [connections, setConnections] = useState<ResultOf<'app.connections.list'>>([]);
  const [filters, setFilters] = useState<ResultOf<'app.filters.list'>>([]);
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<ReportRow | null>(null);
  const [guarding, setGuarding] = useState<{ kind: PermissionKind; id: string; name: string } | null>(null);
  // Asked again with every reload of the lists (a new report brings its own answer).
  const may = useProjectAccess(projectId, reports);
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

  const removeReport = async (r: ReportRow) => {
    const yes = await askConfirm({
      title: 'Delete report?',
      message: `The report “${r.name}” will be deleted with its design. This cannot be undone.`,
      confirmLabel: 'Delete report',
    });
    if (!yes) return;
    toastOutcome(await invoke('app.reports.delete', { params: { id: r.id } }), `Deleted report “${r.name}”.`);
    void load();
  };
  const removeConnection = async (c: { id: string; name: string; appName: string | null }) => {
    const yes = await askConfirm({
      title: 'Remove connection?',
      message: `The project will no longer reach the app “${c.appName ?? 'unknown'}” through “${c.name}”. Reports using it must be given another connection.`,
      confirmLabel: 'Remove connection',
    });
    if (!yes) return;
    // A connection in use is refused with the reports named: told in a toast, the page stays.
    toastOutcome(await invoke('app.connections.delete', { params: { id: c.id } }), `Removed connection “${c.name}”.`);
    void load();
  };
  const removeFilter = async (f: { id: string; name: string }) => {
    const yes = await askConfirm({
      title: 'Delete filter?',
      message: `The filter “${f.name}” will be deleted with its steps. This cannot be undone.`,
      confirmLabel: 'Delete filter',
    });
    if (!yes) return;
    toastOutcome(await invoke('app.filters.delete', { params: { id: f.id } }), `Deleted filter “${f.name}”.`);
    void load();
  };

  const setMode = async (on: boolean) => {
    if (on) {
      const yes = await askConfirm({
        title: 'Turn on permissions mode?',
        message: `Only administrators, the project's creator and the members you add will reach “${project?.name}” and its reports, filters, conditions and tasks.`,
        confirmLabel: 'Turn on',
      });
      if (!yes) return;
    }
    toastOutcome(
      await invoke('v2.projects.updatePermissionsMode', {
        params: { id: projectId },
        query: { value: on ? 'true' : 'false' },
      }),
      on ? 'Permissions mode is on: members only.' : 'Permissions mode is off: roles alone decide.',
    );
    void load();
  };

  if (error)
    return (
      <div className="error-banner" role="alert">
        {error}
      </div>
    );
  if (!project) return <p className="empty">Loading…</p>;
  if (reportId)
    return (
      <ReportDesigner
        reportId={reportId}
        projectId={projectId}
        connections={connections}
        filters={filters}
        onBack={() => screenChosen('projects', projectId)}
      />
    );
  if (filterId) return <FilterEditor filterId={filterId} onBack={() => screenChosen('projects', projectId)} />;

  return (
    <section className="screen">
      <header className="screen-head">
        <div>
          <a href="#/projects" className="crumb">
            Projects
          </a>
          <h1>{project.name}</h1>
        </div>
        <div className="head-actions">
          {may('project', null, 'v2.projects.updatePermissionsMode') ? (
            <label className="mode-switch">
              <input
                type="checkbox"
                checked={project.permissionsMode}
                onChange={(e) => void setMode(e.target.checked)}
              />
              Members only (permissions mode)
            </label>
          ) : (
            project.permissionsMode && <span className="badge">Members only</span>
          )}
          {may('project', null, 'v2.projects.setPermissions') && (
            <button type="button" onClick={() => setGuarding({ kind: 'project', id: projectId, name: project.name })}>
              Project permissions
            </button>
          )}
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
                {r.templateFile ? (
                  <span className="badge" title={r.templateFile}>
                    template
                  </span>
                ) : null}
                {r.isIteration ? <span className="badge">iterates</span> : null}
                <span className="card-actions">
                  {may('report', r.id, 'v2.reports.update') && (
                    <button
                      type="button"
                      className="small"
                      onClick={() => setRenaming(r)}
                      aria-label={`Rename ${r.name}`}
                    >
                      Rename
                    </button>
                  )}
                  <ShareAndDelete
                    label={r.name}
                    share={may('report', r.id, 'v2.reports.setPermissions')}
                    remove={may('report', r.id, 'app.reports.delete')}
                    onShare={() => setGuarding({ kind: 'report', id: r.id, name: r.name })}
                    onRemove={() => void removeReport(r)}
                  />
                </span>
              </li>
            ))}
            {!reports.length && <li className="empty">No reports yet.</li>}
          </ul>
          {may('project', null, 'v2.reports.create') && (
            <Form
              fields={[
                { name: 'name', label: 'New report name', kind: 'text', required: true },
                { name: 'type', label: 'Type', kind: 'select', required: true, choices: REPORT_TYPES },
              ]}
              initial={{ type: 'Word' }}
              submitLabel="Create report"
              clearOnSuccess
              onSubmit={async (v) => {
                const a = await invoke('v2.reports.create', {
                  body: { name: text(v.name), projectID: projectId, type: text(v.type) },
                });
                if (!a.ok) return submitOutcome(a);
                void screenChosen('projects', projectId, 'reports', a.data.id);
                return null;
              }}
            />
          )}
          {may('project', null, 'app.reports.createFromTemplate') && (
            <NewTemplateReport
              projectId={projectId}
              onCreated={(id) => void screenChosen('projects', projectId, 'reports', id)}
            />
          )}
        </div>
        <div className="panel">
          <h2>Connections</h2>
          <ul className="cards">
            {connections.map((c) => (
              <li key={c.id}>
                {c.name} <span className="badge">{c.appName}</span>
                {may('project', null, 'app.connections.delete') && (
                  <button
                    type="button"
                    className="danger small"
                    aria-label={`Remove connection ${c.name}`}
                    onClick={() => void removeConnection(c)}
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
            {!connections.length && (
              <li className="empty">Connect the project to an analytics app to build reports.</li>
            )}
          </ul>
          {may('project', null, 'app.connections.create') && (
            <Form
              fields={[
                { name: 'name', label: 'Connection name', kind: 'text', required: true },
                { name: 'analyticsAppId', label: 'Analytics app', kind: 'select', required: true, options: appOptions },
              ]}
              initial={{}}
              submitLabel="Add connection"
              clearOnSuccess
              onSubmit={async (v) => {
                const a = await invoke('app.connections.create', {
                  body: { projectId, name: text(v.name), analyticsAppId: text(v.analyticsAppId) },
                });
                if (!a.ok) return submitOutcome(a);
                void load();
                return null;
              }}
            />
          )}
          <h2 className="spaced">Filters</h2>
          <ul className="cards">
            {filters.map((f) => (
              <li key={f.id}>
                <a href={`#/projects/${projectId}/filters/${f.id}`}>{f.name}</a>
                <span className="badge">
                  {f.values.length} step{f.values.length === 1 ? '' : 's'}
                </span>
                <span className="card-actions">
                  <ShareAndDelete
                    label={`filter ${f.name}`}
                    share={may('filter', f.id, 'v2.filters.setPermissions')}
                    remove={may('filter', f.id, 'app.filters.delete')}
                    onShare={() => setGuarding({ kind: 'filter', id: f.id, name: f.name })}
                    onRemove={() => void removeFilter(f)}
                  />
                </span>
              </li>
            ))}
          </ul>
          {may('project', null, 'v2.filters.create') && (
            <Form
              fields={[{ name: 'name', label: 'New filter name', kind: 'text', required: true }]}
              initial={{}}
              submitLabel="Create filter"
              clearOnSuccess
              onSubmit={async (v) => {
                const a = await invoke('v2.filters.create', { body: { name: text(v.name), projectID: projectId } });
                if (!a.ok) return submitOutcome(a);
                void screenChosen('projects', projectId, 'filters', a.data.id);
                return null;
              }}
            />
          )}
        </div>
      </div>
      {guarding && <PermissionsDialog {...guarding} onClose={() => setGuarding(null)} />}
      {renaming && (
        <Dialog title="Rename report" onClose={() => setRenaming(null)}>
          <Form
            fields={[
              { name: 'name', label: 'Name', kind: 'text', required: true },
              { name: 'description', label: 'Description', kind: 'textarea' },
            ]}
            initial={{ name: renaming.name, description: renaming.description ?? '' }}
            submitLabel="Rename"
            onCancel={() => setRenaming(null)}
            onSubmit={async (v) => {
              const a = await invoke('v2.reports.update', {
                params: { id: renaming.id },
                body: { name: text(v.name), description: orNull(v.description), isIteration: renaming.isIteration },
              });
              if (a.ok) {
                toastOutcome(a, `Renamed to “${a.data.name}”.`);
                setRenaming(null);
                void load();
              }
              return submitOutcome(a);
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
