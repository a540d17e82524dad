import { useEffect, useState } from 'react';
import { fileSize } from './file-size';
import { downloadFile, invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { inZone } from '../../components/times';
import { toastFailed } from '../../stores/feedback/toasts';

type HubFile = RowOf<'v1.files.list'>;
type Occurrence = RowOf<'v1.files.listOccurrences'>;

/**
 * A published file's versions: each run that published it left an occurrence (as many as the task
 * keeps), newest first, each one downloadable. The list shows a file once; its history lives here.
 */
export function FileVersions({ file, onClose }: { file: HubFile; onClose: () => void }) {
  const [rows, setRows] = useState<Occurrence[] | null>(null);
  useEffect(() => {
    void invoke('v1.files.listOccurrences', { params: { id: file.id }, query: { get_all: true } }).then((a) => {
      if (a.ok) setRows(a.data);
      else toastFailed(a.error ?? 'The versions could not be read');
    });
  }, [file.id]);
  const download = async (o: Occurrence) => {
    const a = await downloadFile('v1.files.download', { query: { id: o.id } });
    if (!a.ok) toastFailed(a.error ?? 'The version could not be downloaded');
  };
  return (
    <Dialog title={`Versions of “${file.name}”`} onClose={onClose}>
      {rows === null ? (
        <p className="empty" role="status">
          Loading…
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Published</th>
              <th>Size</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o, i) => (
              <tr key={o.id}>
                <td>
                  {inZone(o.createdDate)}
                  {i === 0 ? ' (latest)' : ''}
                </td>
                <td>{fileSize(o.size)}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Download the version of ${inZone(o.createdDate)}`}
                    onClick={() => void download(o)}
                  >
                    Download
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}
