import { invoke } from '../../../bridge';
import { DataTable } from '../../../components/DataTable';
import type { ListStore } from '../../../stores/lists/list-store';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastOutcome } from '../../../stores/feedback/toasts';
import { when, type Message } from './types';

/** The mail of runs: queued, sent, failed with the server's reply in words; retry, cancel. */
export function OutboxPanel({
  outbox,
  refreshAll,
  narrowed,
}: {
  outbox: ListStore<'app.outbox.list'>;
  refreshAll: () => void;
  /** The runs' filter narrows the outbox too: said, as on the runs. */
  narrowed: boolean;
}) {
  const cancel = async (m: Message) => {
    const yes = await askConfirm({
      title: 'Cancel mail?',
      message: `“${m.subject}” to ${m.to.join(', ')} will not be sent. You can send it again later with Retry.`,
      confirmLabel: 'Cancel mail',
      cancelLabel: 'Keep it',
    });
    if (!yes) return;
    toastOutcome(await invoke('app.outbox.cancel', { params: { id: m.id } }), `“${m.subject}” will not be sent.`);
    refreshAll();
  };
  return (
    <div className="panel">
      <h2>Outbox</h2>
      <DataTable
        store={outbox}
        narrowed={narrowed}
        filterLabel="subject"
        columns={[
          { key: 'subject', label: 'Subject', sort: 'subject' },
          { key: 'to', label: 'To', render: (m) => m.to.join(', ') },
          {
            key: 'status',
            label: 'Status',
            sort: 'status',
            render: (m) => (
              <span
                className={`status status-${m.status === 'sent' ? 'completed' : m.status === 'failed' ? 'failed' : 'warning'}`}
              >
                {m.status}
                {m.uncertain ? ' (resent after an interruption)' : ''}
              </span>
            ),
          },
          { key: 'attempts', label: 'Attempts', sort: 'attempts' },
          {
            key: 'lastError',
            label: 'Server reply',
            render: (m) =>
              m.lastError ? (
                <>
                  <div>{m.explanation}</div>
                  <div className="raw-reply">{m.lastError}</div>
                </>
              ) : (
                ''
              ),
          },
          { key: 'sentAt', label: 'Sent', sort: 'sentAt', render: (m) => when(m.sentAt) },
        ]}
        actions={(m) => (
          <>
            {(m.status === 'failed' || m.status === 'cancelled') && (
              <button
                type="button"
                onClick={async () => {
                  toastOutcome(
                    await invoke('app.outbox.retry', { params: { id: m.id } }),
                    `Sending “${m.subject}” again.`,
                  );
                  refreshAll();
                }}
              >
                Retry
              </button>
            )}
            {(m.status === 'queued' || m.status === 'uncertain' || m.status === 'failed') && (
              <button type="button" onClick={() => void cancel(m)}>
                Cancel
              </button>
            )}
          </>
        )}
      />
    </div>
  );
}
