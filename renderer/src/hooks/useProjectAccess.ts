import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../bridge';
import type { ResultOf } from '../../../engine/catalogue';

type Access = ResultOf<'app.projects.access'>;
export type AccessKind = 'project' | 'report' | 'filter' | 'condition' | 'task';

/**
 * What the signed-in person may do in a project, as the engine's own checks answer it
 * (`app.projects.access`): screens show a control only when its operation would be allowed, rather
 * than offering a click the server refuses. Asked again whenever `reloadKey` changes.
 */
export function useProjectAccess(projectId: string | null, reloadKey: unknown) {
  const [access, setAccess] = useState<Access | null>(null);
  useEffect(() => {
    // Not known yet (a task's project comes with the task).
    if (!projectId) return;
    let live = true;
    void invoke('app.projects.access', { params: { id: projectId } }).then((a) => {
      if (live) setAccess(a.ok ? a.data : null);
    });
    return () => {
      live = false;
    };
  }, [projectId, reloadKey]);
  /** Whether `op` is allowed on the project, or on one of its objects by id; null until answered. */
  return useCallback(
    (kind: AccessKind, id: string | null, op: string): boolean | null => {
      if (!access) return null;
      const ops = kind === 'project' ? access.project : access[`${kind}s`][id ?? ''];
      return !!ops?.includes(op);
    },
    [access],
  );
}
