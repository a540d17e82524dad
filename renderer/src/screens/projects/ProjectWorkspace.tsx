import { useEffect, useState } from 'react';
import { useNav } from '../../stores/nav/nav.store';
import { ReportDesigner } from '../designer/ReportDesigner';
import { FilterEditor } from '../filters/FilterEditor';
import { PermissionsDialog, type PermissionKind } from '../../components/PermissionsDialog';
import { useProjectAccess } from '../../hooks/useProjectAccess';
import { useProjectWorkspace, type ReportRow } from './workspace/use-project-workspace';
import { ReportsPanel } from './workspace/ReportsPanel';
import { TasksPanel } from './workspace/TasksPanel';
import { ConnectionsPanel } from './workspace/ConnectionsPanel';
import { FiltersPanel } from './workspace/FiltersPanel';
import { RenameReportDialog } from './workspace/RenameReportDialog';
import { PermissionsModeSwitch } from './workspace/PermissionsModeSwitch';

/** One project: its reports, the tasks that distribute them, its connections to analytics apps, and its filters. */
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
  const { project, reports, tasks, connections, filters, error, load } = useProjectWorkspace(projectId);
  const [renaming, setRenaming] = useState<ReportRow | null>(null);
  const [guarding, setGuarding] = useState<{ kind: PermissionKind; id: string; name: string } | null>(null);
  // Asked again with every reload of the lists (a new report brings its own answer).
  const may = useProjectAccess(projectId, reports);
  // Coming back from a report or a filter shows what changed there.
  useEffect(() => void load(), [load, reportId, filterId]);

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
          <PermissionsModeSwitch project={project} may={may} load={load} />
          {may('project', null, 'v2.projects.setPermissions') && (
            <button type="button" onClick={() => setGuarding({ kind: 'project', id: projectId, name: project.name })}>
              Project permissions
            </button>
          )}
        </div>
      </header>
      <div className="columns">
        <ReportsPanel
          projectId={projectId}
          reports={reports}
          may={may}
          load={load}
          rename={setRenaming}
          guard={setGuarding}
        />
        <TasksPanel tasks={tasks} />
        <div className="panel">
          <ConnectionsPanel projectId={projectId} connections={connections} may={may} load={load} />
          <FiltersPanel projectId={projectId} filters={filters} may={may} load={load} guard={setGuarding} />
        </div>
      </div>
      {guarding && <PermissionsDialog {...guarding} onClose={() => setGuarding(null)} />}
      {renaming && (
        <RenameReportDialog renaming={renaming} close={() => setRenaming(null)} renamed={() => void load()} />
      )}
    </section>
  );
}
