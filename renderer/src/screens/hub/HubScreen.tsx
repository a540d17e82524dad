import { useEffect, useMemo, useRef, useState } from 'react';
import { fileSize } from './file-size';
import { bytesOf, downloadFile, invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import type { WireFile } from '../../../../engine/wire';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { createListStore } from '../../stores/lists/list-store';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastFailed, toastOutcome } from '../../stores/feedback/toasts';
import { selectMayCall, useSession } from '../../stores/session/session.store';
import { HubFolders } from './HubFolders';
import { PdfPreview } from './PdfPreview';
import { SubscribeDialog } from './SubscribeDialog';
import { RowMenu } from '../../components/RowMenu';
import { FileVersions } from './FileVersions';
import { inZone } from '../../components/times';
import { MySubscriptions } from './MySubscriptions';

type HubFile = RowOf<'v1.files.list'>;
type View = 'all' | 'favorites' | 'recent' | 'subscriptions';
const VIEWS: { id: View; label: string }[] = [
  { id: 'all', label: 'All files' },
  { id: 'favorites', label: 'Favourites' },
  { id: 'recent', label: 'Recent (7 days)' },
  { id: 'subscriptions', label: 'My subscriptions' },
];
const PREVIEWABLE = new Set(['pdf', 'png']);
const when = (iso: string | null) => inZone(iso);

/**
 * What was published to the caller: all files (by folder), favourites and recent ones; search by
 * name; star, preview a PDF or an image in the page, download one file or a whole iteration set.
 */
export function HubScreen() {
  const [view, setView] = useState<View>('all');
  const [folderId, setFolderId] = useState('');
  const folderRef = useRef('');
  folderRef.current = folderId;
  const all = useMemo(
    () =>
      createListStore(
        'v1.files.list',
        'name',
        (): Record<string, string> => (folderRef.current ? { folderId: folderRef.current } : {}),
      ),
    [],
  );
  const favorites = useMemo(() => createListStore('v1.files.listFavorites', 'name'), []);
  const recent = useMemo(() => createListStore('v1.files.listRecent', 'name'), []);
  const store = view === 'favorites' ? favorites : view === 'recent' ? recent : all;
  const [folders, setFolders] = useState<RowOf<'v1.hubFolders.list'>[]>([]);
  const [preview, setPreview] = useState<{ file: HubFile; bytes: Uint8Array; url: string | null; mime: string } | null>(
    null,
  );
  const mayDelete = useSession(selectMayCall('v1.files.delete'));
  const mayDownload = useSession(selectMayCall('v1.files.download'));
  const mayManageFolders = useSession(selectMayCall('v1.hubFolders.create'));
  const maySubscribe = useSession(selectMayCall('v1.subscriptions.create'));
  const [subscribing, setSubscribing] = useState<HubFile | null>(null);
  const [versions, setVersions] = useState<HubFile | null>(null);

  const loadFolders = async () => {
    const a = await invoke('v1.hubFolders.list', { query: { get_all: true, sort_by: 'ParentUrl' } });
    if (a.ok) setFolders(a.data);
  };
  useEffect(() => {
    void loadFolders();
  }, []);
  useEffect(() => {
    void store.getState().refreshRequested();
  }, [store, folderId]);
  useEffect(
    () => () => {
      if (preview?.url) URL.revokeObjectURL(preview.url);
    },
    [preview],
  );

  const refresh = () => void store.getState().refreshRequested();
  const toggleStar = async (f: HubFile) => {
    const a = f.starred
      ? await invoke('app.files.unstar', { params: { id: f.id } })
      : await invoke('app.files.star', { params: { id: f.id } });
    if (!a.ok) toastFailed(a.error ?? 'The star could not be changed');
    refresh();
  };
  const showPreview = async (f: HubFile) => {
    const a = await invoke('app.files.preview', { params: { id: f.id } });
    const file = a.data as WireFile | null;
    if (!a.ok || !file) return toastFailed(a.error ?? 'The file could not be shown');
    const bytes = bytesOf(file);
    // An image shows from a page-local URL (revoked on close); a PDF is drawn from its bytes.
    setPreview({
      file: f,
      bytes,
      mime: file.mime,
      url: file.mime === 'application/pdf' ? null : URL.createObjectURL(new Blob([bytes], { type: file.mime })),
    });
  };
  const download = async (f: HubFile, iterationSet = false) => {
    const a = await downloadFile('v1.files.download', { query: { id: f.id, isIteration: iterationSet } });
    if (!a.ok) toastFailed(a.error ?? 'The file could not be downloaded');
  };
  const remove = async (f: HubFile) => {
    const yes = await askConfirm({
      title: 'Delete file?',
      message: `“${f.name}” will be deleted from the hub with every earlier occurrence, for everyone it was published to. This cannot be undone.`,
      confirmLabel: 'Delete file',
    });
    if (!yes) return;
    toastOutcome(await invoke('v1.files.delete', { body: [{ id: f.id }] }), `Deleted “${f.name}”.`);
    refresh();
  };

  return (
    <section className="screen">
      <header className="screen-head">
        <h1>Published files</h1>
        <div className="head-actions">
          <button type="button" onClick={refresh}>
            Refresh
          </button>
        </div>
      </header>
      <div className="panel">
        <div className="toolbar" role="group" aria-label="Which files">
          {VIEWS.filter((v) => v.id !== 'subscriptions' || maySubscribe).map((v) => (
            <button
              key={v.id}
              type="button"
              aria-pressed={view === v.id}
              className={view === v.id ? 'active' : ''}
              onClick={() => setView(v.id)}
            >
              {v.label}
            </button>
          ))}
          {view === 'all' && (
            <label className="inline-field">
              Folder{' '}
              <select value={folderId} onChange={(e) => setFolderId(e.target.value)}>
                <option value="">Every folder</option>
                {folders.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.location}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        {view === 'subscriptions' ? (
          <MySubscriptions />
        ) : (
          <DataTable
            store={store}
            filterLabel="file name"
            columns={[
              {
                key: 'starred',
                label: 'Star',
                sort: view === 'all' ? 'starred' : undefined,
                render: (f) => (
                  <button
                    type="button"
                    className="icon star"
                    aria-pressed={!!f.starred}
                    aria-label={`${f.starred ? 'Unstar' : 'Star'} ${f.name}`}
                    onClick={() => void toggleStar(f)}
                  >
                    {f.starred ? '★' : '☆'}
                  </button>
                ),
              },
              { key: 'name', label: 'Name', sort: 'Name' },
              { key: 'reportName', label: 'Report' },
              { key: 'folder', label: 'Folder' },
              { key: 'extension', label: 'Type', sort: 'Type', render: (f) => (f.extension ?? '').toUpperCase() },
              { key: 'size', label: 'Size', render: (f) => fileSize(f.size) },
              { key: 'createdDate', label: 'Published', sort: 'CreatedDate', render: (f) => when(f.createdDate) },
            ]}
            actions={(f) => (
              <>
                {PREVIEWABLE.has(f.extension ?? '') && (
                  <button type="button" onClick={() => void showPreview(f)}>
                    Preview
                  </button>
                )}
                {mayDownload && (
                  <button type="button" onClick={() => void download(f)}>
                    Download
                  </button>
                )}
                {maySubscribe && (
                  <button
                    type="button"
                    onClick={() => setSubscribing(f)}
                    title="Receive this report by mail on a schedule of your own"
                  >
                    Subscribe
                  </button>
                )}
                <RowMenu
                  label={`More for ${f.name}`}
                  items={[
                    ...(mayDownload ? [{ label: 'Earlier versions', run: () => setVersions(f) }] : []),
                    ...(mayDownload && f.isIteration
                      ? [{ label: 'Download all as zip', run: () => void download(f, true) }]
                      : []),
                    ...(mayDelete ? [{ label: 'Delete', run: () => void remove(f), danger: true }] : []),
                  ]}
                />
              </>
            )}
          />
        )}
      </div>
      {mayManageFolders && <HubFolders folders={folders} onChanged={() => void loadFolders()} />}
      {subscribing && <SubscribeDialog file={subscribing} onClose={() => setSubscribing(null)} />}
      {versions && <FileVersions file={versions} onClose={() => setVersions(null)} />}
      {preview && (
        <Dialog title={preview.file.name ?? 'Preview'} onClose={() => setPreview(null)}>
          {preview.url ? (
            <img className="file-preview" src={preview.url} alt={`Preview of ${preview.file.name}`} />
          ) : (
            <PdfPreview data={preview.bytes} title={preview.file.name ?? 'the file'} />
          )}
          {mayDownload && (
            <div className="dialog-actions">
              <button type="button" onClick={() => void download(preview.file)}>
                Download
              </button>
            </div>
          )}
        </Dialog>
      )}
    </section>
  );
}
