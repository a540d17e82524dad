import { useState } from 'react';
import { downloadFile, invoke } from '../../bridge';
import { readFile } from '../../components/file-input';
import { orNull, text } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith } from '../../components/crud-config';
import type { BodyOf } from '../../../../engine/catalogue';
import { useNav } from '../../stores/nav/nav.store';
import { ProjectWorkspace } from './ProjectWorkspace';

export function ProjectsScreen() {
  const path = useNav((s) => s.path);
  const screenChosen = useNav((s) => s.screenChosen);
  const [notice, setNotice] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  if (path[0]) return <ProjectWorkspace projectId={path[0]} reportId={path[1] === 'reports' ? path[2] : undefined} filterId={path[1] === 'filters' ? path[2] : undefined} />;

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      // The engine checks the file's shape and names what is wrong.
      const content = JSON.parse(await readFile(file, 'text')) as BodyOf<'app.projects.import'>['file'];
      const a = await invoke('app.projects.import', { body: { file: content } });
      setNotice(a.ok ? `Imported "${a.data.name}".` : a.error);
      if (a.ok) setVersion((v) => v + 1);
    } catch {
      setNotice('That file is not a Broadsheet project file.');
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
      { key: 'modifiedDate', label: 'Modified', sort: 'ModifiedDate', render: (r) => (r.modifiedDate ? new Date(r.modifiedDate).toLocaleString() : '') },
    ],
    creates: [createWith('app.projects.create', {
      noun: 'project',
      fields: [{ name: 'name', label: 'Name', kind: 'text', required: true }, { name: 'description', label: 'Description', kind: 'textarea' }],
      initial: {}, toBody: (v) => ({ name: text(v.name), description: orNull(v.description) }),
      created: (project) => screenChosen('projects', project.id),
    })],
    rowActions: (row, reload) => (
      <>
        <button type="button" onClick={() => screenChosen('projects', row.id)}>Open</button>
        <button type="button" onClick={() => void downloadFile('app.projects.export', { params: { id: row.id } })}>Export</button>
        <button
          type="button"
          className="danger"
          onClick={async () => {
            const name = prompt(`Type the project's name to delete it with its reports: ${row.name}`);
            if (name === null) return;
            const a = await invoke('v1.projects.delete', { body: [{ id: row.id, name }] });
            setNotice(a.ok ? 'Project deleted.' : a.error);
            reload();
          }}
        >
          Delete
        </button>
      </>
    ),
  };
  return (
    <>
      {notice && <div className="notice" role="status" onClick={() => setNotice(null)}>{notice}</div>}
      <ResourceScreen key={version} config={config} />
      <div className="panel">
        <h2>Import a project</h2>
        <label className="file-pick">
          Project file (.broadsheet.json)
          <input type="file" accept=".json,application/json" onChange={(e) => void importFile(e.target.files?.[0])} />
        </label>
      </div>
    </>
  );
}
