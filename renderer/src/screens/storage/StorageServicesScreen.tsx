import { invoke } from '../../bridge';
import { choice, flag, num, orNull, text, type FormValues } from '../../components/options';
import type { FieldDef } from '../../components/Form';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';
import { toastOutcome } from '../../stores/feedback/toasts';
import { STORAGE_TYPES } from '../../../../engine/wire';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'type', label: 'Type', kind: 'select', required: true, choices: STORAGE_TYPES },
  { name: 'rootPath', label: 'Folder (for a folder): the root every delivery stays under', kind: 'text', hint: 'An absolute path, such as /srv/reports or D:\\Reports' },
  { name: 'host', label: 'Host (FTP, SFTP)', kind: 'text' },
  { name: 'port', label: 'Port (FTP 21, SFTP 22)', kind: 'number' },
  { name: 'username', label: 'User name (FTP, SFTP)', kind: 'text' },
  { name: 'password', label: 'Password (FTP, SFTP)', kind: 'password', hint: 'Stored encrypted; leave blank to keep the one saved' },
  { name: 'privateKey', label: 'Private key (SFTP)', kind: 'textarea', hint: 'OpenSSH or PEM; stored encrypted; leave blank to keep the one saved' },
  { name: 'ftpTestDirectoryPath', label: 'Base directory (FTP, SFTP)', kind: 'text', hint: 'Deliveries stay under it; for SFTP an absolute path on the server' },
  { name: 'passiveMode', label: 'Passive mode (FTP)', kind: 'checkbox' },
  { name: 'clearHostKey', label: 'Forget the pinned host key (SFTP: the server was reinstalled)', kind: 'checkbox', hint: 'The next connection pins the key the server offers then' },
  { name: 'description', label: 'Description', kind: 'textarea' },
];

const body = (v: FormValues) => ({
  name: text(v.name), type: choice(STORAGE_TYPES)(v.type), rootPath: orNull(v.rootPath), host: orNull(v.host), port: num(v.port), username: orNull(v.username),
  password: orNull(v.password), privateKey: orNull(v.privateKey), sftpPort: v.type === 'SFTP' ? num(v.port) : null, ftpTestDirectoryPath: orNull(v.ftpTestDirectoryPath), passiveMode: flag(v.passiveMode), clearHostKey: flag(v.clearHostKey), description: orNull(v.description),
});

const config = {
  ...crudConfig({
    title: 'Storage services',
    noun: 'storage service',
    ops: { list: 'v1.storageServices.list', create: 'app.storageServices.create', update: 'v2.storageServices.update', remove: 'v1.storageServices.delete' },
    columns: [
      { key: 'name', label: 'Name', sort: 'Name' },
      { key: 'type', label: 'Type', sort: 'Type' },
      { key: 'rootPath', label: 'Where', render: (r) => (r.type === 'Folder' ? (r.rootPath ?? '') : `${r.host ?? ''}:${r.port ?? 21}${r.rootPath ?? '/'}`) },
      { key: 'hostKey', label: 'Host key (SFTP)', render: (r) => r.hostKey ?? (r.type === 'SFTP' ? 'pinned on first connection' : '') },
      { key: 'description', label: 'Description', sort: 'Description' },
    ],
    fields,
    initial: { type: 'Folder', passiveMode: true },
    toForm: (r) => ({ ...r, password: '', privateKey: '', clearHostKey: false }),
    body,
  }),
  rowActions: (r: { id: string; name: string }) => (
    <button type="button" onClick={async () => {
      const a = await invoke('app.storageServices.test', { params: { id: r.id } });
      toastOutcome(a, a.ok ? a.data.message : '');
    }}>Test connection</button>
  ),
};

/** Folders and FTP servers task reports deliver to, each with a connection test. */
export function StorageServicesScreen() {
  return <ResourceScreen config={config} />;
}
