import { useEffect, useState } from 'react';
import { mayCall } from '../../stores/session/session.store';
import { invoke } from '../../bridge';

export interface Choice {
  id: string;
  name: string;
}
export interface ReportChoice extends Choice {
  formats: string[];
}

/** What a task's items are chosen from, read once per task page: names for the cards, choices for the dialogs. */
export interface TaskChoices {
  reports: ReportChoice[];
  conditions: Choice[];
  filters: Choice[];
  storage: Choice[];
  hubFolders: Choice[];
  /** The hub's top folder: where a new task report publishes unless told otherwise, as recipients see the hub by default. */
  hubRootId: string | null;
}

const rows = async <T>(a: Promise<{ ok: boolean; data?: unknown }>, map: (x: T) => Choice | ReportChoice) => {
  const answer = await a;
  return answer.ok ? (answer.data as T[]).map(map) : [];
};

export function useTaskChoices(projectId: string): TaskChoices | null {
  const [choices, setChoices] = useState<TaskChoices | null>(null);
  useEffect(() => {
    void (async () => {
      const [reports, conditions, filters, storage, hubFolders] = await Promise.all([
        rows(
          invoke('v1.reports.listOwn', { query: { project_id: projectId, get_all: true } }),
          (r: { id: string; name: string; outputFormats: string[] }) => ({
            id: r.id,
            name: r.name,
            formats: r.outputFormats,
          }),
        ),
        rows(invoke('v1.conditions.list', { query: { project_id: projectId, get_all: true } }), (c: Choice) => ({
          id: c.id,
          name: c.name,
        })),
        rows(invoke('app.filters.list', { query: { projectId } }), (f: Choice) => ({ id: f.id, name: f.name })),
        rows(
          // Storage services are settings: someone whose roles do not show them sees the task's by name only.
          mayCall('v1.storageServices.list')
            ? invoke('v1.storageServices.list', { query: { get_all: true } })
            : Promise.resolve({ ok: true as const, data: [] }),
          (x: { id: string; name: string; type: string }) => ({ id: x.id, name: `${x.name} (${x.type})` }),
        ),
        invoke('v1.hubFolders.list', { query: { get_all: true, sort_by: 'ParentUrl' } }),
      ]);
      const folders = hubFolders.ok ? hubFolders.data : [];
      setChoices({
        reports: reports as ReportChoice[],
        conditions,
        filters,
        storage,
        hubFolders: folders.map((f) => ({ id: f.id, name: f.isRoot ? 'The hub’s top folder (/)' : f.location })),
        hubRootId: folders.find((f) => f.isRoot)?.id ?? null,
      });
    })();
  }, [projectId]);
  return choices;
}

export const nameIn = (list: Choice[] | undefined, id: string) =>
  list?.find((x) => x.id === id)?.name ?? 'a removed item';
