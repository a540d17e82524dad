import { useEffect, useMemo, useState } from 'react';
import { invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { DataTable } from '../../components/DataTable';
import { createListStore } from '../../stores/lists/list-store';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome } from '../../stores/feedback/toasts';
import { inZone } from '../../components/times';
import { SubscribeDialog } from './SubscribeDialog';

type Subscription = RowOf<'v1.subscriptions.listOwn'>;
const when = (iso: string | null) => inZone(iso) || '—';

/** The caller's subscriptions: what, when it runs (its schedule in words), when it ran, next run; unsubscribe. */
export function MySubscriptions() {
  const store = useMemo(() => createListStore('v1.subscriptions.listOwn', 'subscribe_to'), []);
  const [editing, setEditing] = useState<Subscription | null>(null);
  useEffect(() => {
    void store.getState().refreshRequested();
  }, [store]);
  const remove = async (s: Subscription) => {
    const yes = await askConfirm({
      title: 'Unsubscribe?',
      message: `“${s.subscribeTo}” will no longer be mailed to you.`,
      confirmLabel: 'Unsubscribe',
    });
    if (!yes) return;
    toastOutcome(await invoke('v1.subscriptions.delete', { body: [s.id] }), `Unsubscribed from “${s.subscribeTo}”.`);
    void store.getState().refreshRequested();
  };
  return (
    <>
      <DataTable
        store={store}
        filterLabel="subscription"
        columns={[
          { key: 'subscribeTo', label: 'Subscribed to', sort: 'subscribeTo' },
          {
            key: 'type',
            label: 'Kind',
            sort: 'Type',
            render: (s) => (s.type === 'AnalyticsEntity' ? 'Chart' : 'Report'),
          },
          { key: 'email', label: 'Subject', sort: 'Subject', render: (s) => s.email.subject },
          {
            key: 'triggerType',
            label: 'When',
            sort: 'triggerType',
            render: (s) => s.schedule?.summary ?? (s.externalEvent ? 'When its data is reloaded' : ''),
          },
          {
            key: 'lastExecutionDate',
            label: 'Last sent',
            sort: 'lastExecutionDate',
            render: (s) => when(s.lastExecutionDate),
          },
          {
            key: 'nextExecutionDate',
            label: 'Next',
            sort: 'nextExecutionDate',
            render: (s) => when(s.nextExecutionDate),
          },
        ]}
        actions={(s) => (
          <>
            {s.triggerType === 'Schedule' && (
              <button type="button" onClick={() => setEditing(s)}>
                Edit
              </button>
            )}
            <button type="button" className="danger" onClick={() => void remove(s)}>
              Unsubscribe
            </button>
          </>
        )}
      />
      {editing && (
        <SubscribeDialog
          editing={editing}
          onClose={() => {
            setEditing(null);
            void store.getState().refreshRequested();
          }}
        />
      )}
    </>
  );
}
