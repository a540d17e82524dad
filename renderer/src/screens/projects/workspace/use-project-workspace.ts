import { useCallback, useState } from 'react';
import { invoke } from '../../../bridge';
import type { ResultOf, RowOf } from '../../../../../engine/catalogue';

export type ReportRow = RowOf<'v1.reports.listOwn'>;

/** One project and its reports, connections and filters, read again on `load`. */
export function useProjectWorkspace(projectId: string) {
  const [project, setProject] = useState<ResultOf<'app.projects.get'> | null>(null);
  const [reports, setReports] = useState<ReportRow[]>([]);
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
  return { project, reports, connections, filters, error, load };
}
