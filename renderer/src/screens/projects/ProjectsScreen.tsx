import { useState } from 'react';
import { mayCall } from '../../stores/session/session.store';
import { downloadFile, invoke } from '../../bridge';
import { readFile } from '../../components/file-input';
import { orNull, text } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith } from '../../components/crud-config';
import type { BodyOf } from '../../../../engine/catalogue';
import { useNav } from '../../stores/nav/nav.store';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastFailed, toastOutcome } from '../../stores/feedback/toasts';
import { ProjectWorkspace } from './ProjectWorkspace';
import { GettingStarted } from './guide/GettingStarted';

export function ProjectsScreen() {
  const path = useNav((s) => s.path);
  const screenChosen = useNav((s) => s.screenChosen);
  const [version, setVersion] = useState(0);
  if (path[0])
    return (
      <ProjectWorkspace
        projectId={path[0]}
        reportId={path[1] === 'reports' ? path[2] : undefined}
        filterId={path[1] === 'filters' ? path[2] : undefined}
      />
    );

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      // The engine checks the file's shape and names what is wrong.
      const content = JSON.parse(await readFile(file, 'text')) as BodyOf<'app.projects.import'>['file'];
      const a = await invoke('app.projects.import', { body: { file: content } });
      if (toastOutcome(a, a.ok ? `Imported “${a.data.name}”.` : '')) setVersion((v) => v + 1);
    } catch {
      toastFailed('That file is not a Broadsheet project file.');
    }
  };

  const config: ResourceConfig<'v1.projects.list'> = {
    title: 'Projects',
    noun: 'project',
    listOp: 'v1.projects.list',
    filterParam: 'name',
    filterLabel: 'name',
    columns: [
      { key: 'name', label: 'Name', sort: 'Name', render: (r) => <a href={`#/projects/${r.id}`}>{r.name}</a> },
      { key: 'description', label: 'Description', sort: 'Description' },
      {
        key: 'modifiedDate',
        label: 'Modified',
        sort: 'ModifiedDate',
        render: (r) => (r.modifiedDate ? new Date(r.modifiedDate).toLocaleString() : ''),
      },
    ],
    creates: [
      createWith('app.projects.create', {
        noun: 'project',
        fields: [
          { name: 'name', label: 'Name', kind: 'text', required: true },
          { name: 'description', label: 'Description', kind: 'textarea' },
        ],
        initial: {},
        toBody: (v) => ({ name: text(v.name), description: orNull(v.description) }),
        created: (project) => screenChosen('projects', project.id),
      }),
    ],
    rowActions: (row, reload) => (
      <>
        <button type="button" onClick={() => screenChosen('projects', row.id)}>
          Open
        </button>
        <button
          type="button"
          onClick={async () => {
            const r = await downloadFile('app.projects.export', { params: { id: row.id } });
            toastOutcome(r, `Exported “${row.name}” as ${r.fileName}.`);
          }}
        >
          Export
        </button>
        {mayCall('v1.projects.delete') && (
          <button
            type="button"
            className="danger"
            onClick={async () => {
              const yes = await askConfirm({
                title: 'Delete project?',
                message: `“${row.name}” will be deleted with all its reports, filters and connections. This cannot be undone.`,
                confirmLabel: 'Delete project',
                typeToConfirm: row.name,
              });
              if (!yes) return;
              const a = await invoke('v1.projects.delete', { body: [{ id: row.id, name: row.name }] });
              toastOutcome(a, `Deleted project “${row.name}”.`);
              reload();
            }}
          >
            Delete
          </button>
        )}
      </>
    ),
  };
  return (
    <>
      <ResourceScreen key={version} config={config} />
      {mayCall('v1.tasks.create') && <GettingStarted />}
      {mayCall('app.projects.import') && (
        <div className="panel">
          <h2>Import a project</h2>
          <label className="file-pick">
            Project file (.broadsheet.json)
            <input type="file" accept=".json,application/json" onChange={(e) => void importFile(e.target.files?.[0])} />
          </label>
        </div>
      )}
    </>
  );
}
