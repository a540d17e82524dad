import { useState } from 'react';
import { invoke } from '../../bridge';
import { kindName } from '../../components/kind-names';
import { choice, num, organizationOptions, orNull, text, type FormValues } from '../../components/options';
import type { FieldDef } from '../../components/Form';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';
import { DATA_CONNECTION_KINDS, TLS_MODES } from '../../../../engine/wire';

// Each kind asks only what it needs: a server its address, database and sign-in; SQLite its file;
// a folder its path (an app's source then names the files by a pattern).
const isServer = (v: FormValues) => v.kind !== 'SQLite' && v.kind !== 'Folder';
const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  {
    name: 'organizationId',
    label: 'Organization',
    kind: 'select',
    options: organizationOptions,
    hint: 'Only its apps load from it, and only its administrators see or change it (yours when left empty)',
  },
  { name: 'kind', label: 'Kind of database', kind: 'select', required: true, choices: DATA_CONNECTION_KINDS },
  {
    name: 'host',
    label: 'Host',
    kind: 'text',
    required: true,
    hint: 'A name or address such as db.example.com; a path starting with / is a Unix socket',
    shownWhen: isServer,
  },
  { name: 'port', label: 'Port (PostgreSQL 5432, MySQL 3306, SQL Server 1433)', kind: 'number', shownWhen: isServer },
  { name: 'database', label: 'Database name', kind: 'text', required: true, shownWhen: isServer },
  {
    name: 'username',
    label: 'User name',
    kind: 'text',
    required: true,
    shownWhen: isServer,
    hint: 'A user that may only read: a superuser, or one who may read the server’s files, is refused',
  },
  {
    name: 'password',
    label: 'Password',
    kind: 'password',
    hint: 'Stored encrypted; leave blank to keep the one saved. Changing the host, port, database, user or encryption drops the saved password: enter it again',
    shownWhen: isServer,
  },
  {
    name: 'tls',
    label: 'Encryption',
    kind: 'select',
    choices: TLS_MODES,
    hint: 'off; require (any certificate); verify (the certificate is checked)',
    shownWhen: isServer,
  },
  {
    name: 'filePath',
    label: 'Database file',
    kind: 'text',
    required: true,
    hint: "An absolute path, such as /srv/data/sales.db; opened read-only. Not inside Broadsheet's own data or a system folder",
    shownWhen: (v) => v.kind === 'SQLite',
  },
  {
    name: 'folderPath',
    label: 'Folder',
    kind: 'text',
    required: true,
    hint: 'An absolute path, such as /srv/exports; its CSV, XLSX and JSON files are read, nothing beneath it',
    shownWhen: (v) => v.kind === 'Folder',
  },
  { name: 'description', label: 'Description', kind: 'textarea' },
];

const body = (v: FormValues) => ({
  name: text(v.name),
  organizationId: orNull(v.organizationId),
  kind: choice(DATA_CONNECTION_KINDS)(v.kind),
  host: orNull(v.host),
  port: num(v.port),
  database: orNull(v.database),
  username: orNull(v.username),
  password: orNull(v.password),
  tls: choice(TLS_MODES)(v.tls || 'off'),
  filePath: v.kind === 'Folder' ? orNull(v.folderPath) : orNull(v.filePath),
  description: orNull(v.description),
});

const config = {
  ...crudConfig({
    title: 'Data connections',
    noun: 'data connection',
    ops: {
      list: 'app.dataConnections.list',
      create: 'app.dataConnections.create',
      update: 'app.dataConnections.update',
      remove: 'app.dataConnections.delete',
    },
    columns: [
      { key: 'name', label: 'Name', sort: 'Name' },
      { key: 'kind', label: 'Database', sort: 'Kind', render: (r) => kindName(r.kind) },
      {
        key: 'host',
        label: 'Where',
        render: (r) =>
          r.kind === 'SQLite' || r.kind === 'Folder'
            ? (r.filePath ?? '')
            : `${r.database ?? ''} at ${r.host ?? ''}${r.port ? `:${r.port}` : ''}`,
      },
      { key: 'username', label: 'User' },
      { key: 'description', label: 'Description' },
    ],
    fields,
    initial: { kind: 'PostgreSQL', tls: 'off' },
    toForm: (r) => ({ ...r, password: '', folderPath: r.kind === 'Folder' ? r.filePath : '' }),
    body,
  }),
  rowActions: (r: { id: string }) => <TestConnection id={r.id} />,
};

/** Tests a connection and keeps its answer beside the button, where it can be read (a toast goes by). */
function TestConnection({ id }: { id: string }) {
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          const a = await invoke('app.dataConnections.test', { params: { id } });
          setBusy(false);
          setAnswer({ ok: a.ok, text: a.ok ? a.data.message : (a.error ?? 'The connection could not be tested.') });
        }}
      >
        {busy ? 'Testing…' : 'Test connection'}
      </button>
      {answer && (
        <div role="status" className={answer.ok ? 'run-note' : 'delivery-problem'}>
          {answer.text}
        </div>
      )}
    </>
  );
}

/** The databases analytics apps load their data from, each with a connection test. */
export function DataConnectionsScreen() {
  return <ResourceScreen config={config} />;
}
