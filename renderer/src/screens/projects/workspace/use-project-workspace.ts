import { useCallback, useState } from 'react';
import { invoke } from '../../../bridge';
import type { ResultOf, RowOf } from '../../../../../engine/catalogue';
import { mayCall } from '../../../stores/session/session.store';

export type ReportRow = RowOf<'v1.reports.listOwn'>;
export type ProjectTaskRow = RowOf<'v1.tasks.list'>;

/** One project and its reports, tasks, connections and filters, read again on `load`. */
export function useProjectWorkspace(projectId: string) {
  const [project, setProject] = useState<ResultOf<'app.projects.get'> | null>(null);
  const [reports, setReports] = useState<ReportRow[]>([]);
  const [connections, setConnections] = useState<ResultOf<'app.connections.list'>>([]);
  const [filters, setFilters] = useState<ResultOf<'app.filters.list'>>([]);
  const [tasks, setTasks] = useState<ProjectTaskRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const p = await invoke('app.projects.get', { params: { id: projectId } });
    if (!p.ok) return setError(p.error);
    setProject(p.data);
    const [r, c, f, t] = await Promise.all([
      invoke('v1.reports.listOwn', { query: { project_id: projectId, get_all: true } }),
      invoke('app.connections.list', { query: { projectId } }),
      invoke('app.filters.list', { query: { projectId } }),
      // The tasks that distribute this project's reports (none read for someone whose roles hide tasks).
      mayCall('v1.tasks.list') ? invoke('v1.tasks.list', { query: { project_id: projectId, get_all: true } }) : null,
    ]);
    setReports(r.ok ? r.data : []);
    setConnections(c.ok ? c.data : []);
    setFilters(f.ok ? f.data : []);
    setTasks(t?.ok ? t.data : []);
  }, [projectId]);
  return { project, reports, tasks, connections, filters, error, load };
}
