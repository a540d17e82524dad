import { invoke } from '../../../bridge';
import { DataTable } from '../../../components/DataTable';
import type { ListStore } from '../../../stores/lists/list-store';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastOutcome } from '../../../stores/feedback/toasts';
import { when, type KeptDelivery } from './types';

const STATUS_CLASS: Record<KeptDelivery['status'], string> = {
  waiting: 'warning',
  delivering: 'running',
  delivered: 'completed',
  failed: 'failed',
  cancelled: 'aborted',
};

/** Where the files go, as a person names it: the destination and the path under its root. */
const whereTo = (d: KeptDelivery) => `“${d.destination}”${d.path ? ` under ${d.path}` : ''}`;

/**
 * Deliveries to folders, FTP, SFTP, WebDAV and cloud drives that failed during their run for a
 * passing cause (a full disk, a server down), kept and tried again: the next try, the cause in
 * words; retry, try now, cancel. Beside the outbox.
 */
export function DeliveriesPanel({
  deliveries,
  refreshAll,
  narrowed,
}: {
  deliveries: ListStore<'app.deliveries.list'>;
  refreshAll: () => void;
  narrowed: boolean;
}) {
  const act = async (
    id: 'app.deliveries.retry' | 'app.deliveries.deliverNow' | 'app.deliveries.cancel',
    d: KeptDelivery,
    done: string,
  ) => {
    toastOutcome(await invoke(id, { params: { id: d.id } }), done);
    refreshAll();
  };
  const cancel = async (d: KeptDelivery) => {
    const yes = await askConfirm({
      title: 'Stop trying this delivery?',
      message: `${d.files.length} file${d.files.length === 1 ? '' : 's'} will not be put in ${whereTo(d)}. You can try again later with Retry.`,
      confirmLabel: 'Stop trying',
      cancelLabel: 'Keep trying',
    });
    if (yes) await act('app.deliveries.cancel', d, `Files for ${whereTo(d)} will not be tried again.`);
  };
  return (
    <div className="panel">
      <h2>Deliveries tried again</h2>
      <DataTable
        store={deliveries}
        narrowed={narrowed}
        filterLabel="destination"
        columns={[
          { key: 'destination', label: 'Destination', sort: 'destination', render: whereTo },
          { key: 'files', label: 'Files', render: (d) => d.files.join(', ') },
          {
            key: 'status',
            label: 'Status',
            sort: 'status',
            render: (d) => <span className={`status status-${STATUS_CLASS[d.status]}`}>{d.status}</span>,
          },
          { key: 'lastError', label: 'Why', render: (d) => d.lastError ?? '' },
          { key: 'attempts', label: 'Tries', sort: 'attempts' },
          {
            key: 'nextAttemptAt',
            label: 'Next try',
            sort: 'nextAttemptAt',
            render: (d) =>
              d.status === 'waiting' ? when(d.nextAttemptAt) : d.status === 'delivered' ? when(d.deliveredAt) : '',
          },
        ]}
        actions={(d) => (
          <>
            {d.status === 'waiting' && (
              <button
                type="button"
                onClick={() => void act('app.deliveries.deliverNow', d, `Trying ${whereTo(d)} now.`)}
              >
                Try now
              </button>
            )}
            {(d.status === 'failed' || d.status === 'cancelled') && (
              <button type="button" onClick={() => void act('app.deliveries.retry', d, `Trying ${whereTo(d)} again.`)}>
                Retry
              </button>
            )}
            {(d.status === 'waiting' || d.status === 'failed') && (
              <button type="button" onClick={() => void cancel(d)}>
                Cancel
              </button>
            )}
          </>
        )}
      />
    </div>
  );
}
