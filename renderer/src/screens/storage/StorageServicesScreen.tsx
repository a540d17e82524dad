import { invoke } from '../../bridge';
import { kindName } from '../../components/kind-names';
import { choice, flag, num, organizationOptions, orNull, text, type FormValues } from '../../components/options';
import type { FieldDef } from '../../components/Form';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';
import { toastFailed, toastOutcome, toastSucceeded } from '../../stores/feedback/toasts';
import { hashOf, useNav } from '../../stores/nav/nav.store';
import { useEffect } from 'react';
import { CLOUD_STORAGE_TYPES, STORAGE_ASKS, STORAGE_TYPES, type StorageField } from '../../../../engine/wire';

type StorageType = (typeof STORAGE_TYPES)[number];

// Each type asks only what it needs (STORAGE_ASKS, beside the engine's kinds): a folder its root, a
// server its address and sign-in, a cloud drive its folder.
const asks = (field: StorageField) => (v: FormValues) => (STORAGE_ASKS[v.type as StorageType] ?? []).includes(field);
const cloud = (type: unknown) => (CLOUD_STORAGE_TYPES as readonly unknown[]).includes(type);
const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  {
    name: 'organizationId',
    label: 'Organization',
    kind: 'select',
    options: organizationOptions,
    hint: 'Only its tasks deliver here, and only its administrators see or change it (yours when left empty)',
  },
  { name: 'type', label: 'Type', kind: 'select', required: true, choices: STORAGE_TYPES },
  {
    name: 'rootPath',
    label: 'Folder: the root every delivery stays under',
    kind: 'text',
    required: true,
    hint: "An absolute path of an existing folder, such as /srv/reports or D:\\Reports; not inside Broadsheet's own data or a system folder",
    shownWhen: asks('rootPath'),
  },
  { name: 'host', label: 'Host', kind: 'text', required: true, shownWhen: asks('host') },
  {
    name: 'davUrl',
    label: 'WebDAV address',
    kind: 'url',
    required: true,
    hint: 'Such as https://cloud.example.com/remote.php/dav/files/reports (Nextcloud) or your NAS’s WebDAV address',
    shownWhen: asks('davUrl'),
  },
  { name: 'port', label: 'Port (FTP 21, SFTP 22)', kind: 'number', shownWhen: asks('port') },
  {
    name: 'siteUrl',
    label: 'SharePoint site address',
    kind: 'url',
    required: true,
    hint: 'Such as https://contoso.sharepoint.com/sites/Finance',
    shownWhen: asks('siteUrl'),
  },
  {
    name: 'library',
    label: 'Document library',
    kind: 'text',
    hint: 'As the site names it, such as Monthly reports; empty for the site’s default library',
    shownWhen: asks('library'),
  },
  { name: 'username', label: 'User name', kind: 'text', shownWhen: asks('username') },
  {
    name: 'password',
    label: 'Password',
    kind: 'password',
    hint: 'Stored encrypted; leave blank to keep the one saved (for Nextcloud, an app password). Changing the address, port, user or folder drops the saved password and key: enter them again',
    shownWhen: asks('password'),
  },
  {
    name: 'privateKey',
    label: 'Private key',
    kind: 'textarea',
    hint: 'OpenSSH or PEM; stored encrypted; leave blank to keep the one saved',
    shownWhen: asks('privateKey'),
  },
  {
    name: 'ftpTestDirectoryPath',
    label: 'Base directory',
    kind: 'text',
    hint: 'Deliveries stay under it; for SFTP an absolute path on the server; for WebDAV and cloud drives a folder in it',
    shownWhen: asks('ftpTestDirectoryPath'),
  },
  { name: 'passiveMode', label: 'Passive mode', kind: 'checkbox', shownWhen: asks('passiveMode') },
  {
    name: 'clearHostKey',
    label: 'Forget the pinned host key (the server was reinstalled)',
    kind: 'checkbox',
    hint: 'The next connection pins the key the server offers then',
    shownWhen: asks('clearHostKey'),
  },
  { name: 'description', label: 'Description', kind: 'textarea' },
];

const body = (v: FormValues) => ({
  name: text(v.name),
  organizationId: orNull(v.organizationId),
  type: choice(STORAGE_TYPES)(v.type),
  rootPath: orNull(v.rootPath),
  host: v.type === 'WebDAV' ? orNull(v.davUrl) : orNull(v.host),
  port: num(v.port),
  username: orNull(v.username),
  password: orNull(v.password),
  privateKey: orNull(v.privateKey),
  sftpPort: v.type === 'SFTP' ? num(v.port) : null,
  ftpTestDirectoryPath: orNull(v.ftpTestDirectoryPath),
  passiveMode: flag(v.passiveMode),
  clearHostKey: flag(v.clearHostKey),
  description: orNull(v.description),
  siteUrl: v.type === 'SharePoint' ? orNull(v.siteUrl) : null,
  library: v.type === 'SharePoint' ? orNull(v.library) : null,
});

const config = {
  ...crudConfig({
    title: 'Storage services',
    noun: 'storage service',
    ops: {
      list: 'v1.storageServices.list',
      create: 'app.storageServices.create',
      update: 'v2.storageServices.update',
      remove: 'v1.storageServices.delete',
    },
    columns: [
      { key: 'name', label: 'Name', sort: 'Name' },
      { key: 'type', label: 'Type', sort: 'Type', render: (r) => kindName(r.type) },
      {
        key: 'rootPath',
        label: 'Where',
        render: (r) =>
          r.type === 'Folder'
            ? (r.rootPath ?? '')
            : cloud(r.type)
              ? `${r.siteUrl ? `${r.siteUrl} ${r.library ?? ''} ` : ''}${r.rootPath ?? '/'}`
              : r.type === 'WebDAV'
                ? `${r.host ?? ''} ${r.rootPath ?? '/'}`
                : `${r.host ?? ''}:${r.port ?? 21}${r.rootPath ?? '/'}`,
      },
      {
        key: 'hostKey',
        label: 'Host key (SFTP)',
        render: (r) => r.hostKey ?? (r.type === 'SFTP' ? 'pinned on first connection' : ''),
      },
      {
        key: 'account',
        label: 'Account',
        render: (r) => (cloud(r.type) ? (r.connected ? r.account : 'Not connected') : ''),
      },
      { key: 'description', label: 'Description', sort: 'Description' },
    ],
    fields,
    initial: { type: 'Folder', passiveMode: true },
    toForm: (r) => ({
      ...r,
      davUrl: r.type === 'WebDAV' ? r.host : '',
      password: '',
      privateKey: '',
      clearHostKey: false,
    }),
    body,
  }),
  rowActions: (r: { id: string; name: string; type: string; connected: boolean }, reload: () => void) => (
    <>
      {cloud(r.type) && (
        <button type="button" onClick={() => void connect(r.id, reload)}>
          {r.connected ? 'Reconnect' : 'Connect account'}
        </button>
      )}
      <button
        type="button"
        onClick={async () => {
          const a = await invoke('app.storageServices.test', { params: { id: r.id } });
          toastOutcome(a, a.ok ? a.data.message : '');
        }}
      >
        Test connection
      </button>
    </>
  ),
};

/**
 * Served, the browser goes to the provider's sign-in page and comes back to #/storage/connected/<id>.
 * On the desktop the system browser opens instead (never a web view) and main takes the answer.
 */
async function connect(id: string, reload: () => void) {
  if (window.broadsheet) {
    const d = await window.broadsheet.connectDrive(id);
    if (d.status !== 200) return toastFailed(d.envelope.error ?? 'The account was not connected.');
    toastSucceeded('The account is connected: test the connection to see it write.');
    return reload();
  }
  const a = await invoke('app.storageServices.connect', { params: { id } });
  if (!a.ok) return toastOutcome(a, '');
  location.assign(a.data.authorizationUrl);
}

/** What the provider's return says, once: a toast, and the address back to the list. */
const RETURNS: Record<string, string> = {
  declined: 'The account was not connected: the sign-in was declined or cancelled.',
  expired: 'The sign-in took too long or was already used: connect again.',
  provider: 'The provider refused the connection: check its app registration under Settings, then connect again.',
};

/** Folders, FTP/SFTP, WebDAV servers and cloud drives task reports deliver to, each with a connection test. */
export function StorageServicesScreen() {
  const path = useNav((s) => s.path);
  useEffect(() => {
    if (!path[0]) return;
    if (path[0] === 'connected') toastSucceeded('The account is connected: test the connection to see it write.');
    else toastFailed(RETURNS[path[1] ?? ''] ?? RETURNS.provider);
    history.replaceState(null, '', hashOf('storage', []));
    useNav.setState({ path: [] });
  }, [path]);
  return <ResourceScreen config={config} />;
}
