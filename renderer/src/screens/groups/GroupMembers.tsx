import { useEffect, useMemo, useState } from 'react';
import { invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { DataTable } from '../../components/DataTable';
import { userOptions } from '../../components/options';
import type { Option } from '../../components/Form';
import { createListStore } from '../../stores/lists/list-store';
import { toastOutcome } from '../../stores/feedback/toasts';

/** The members of one group: add a user, remove one; listed and sorted on the server. */
export function GroupMembers({
  group,
  changed,
}: {
  group: Pick<RowOf<'v1.groups.list'>, 'id' | 'name' | 'type'>;
  changed: () => void;
}) {
  const store = useMemo(() => createListStore('v1.groups.listMembers', null, () => ({ id: group.id })), [group.id]);
  const [users, setUsers] = useState<Option[]>([]);
  const [chosen, setChosen] = useState('');
  useEffect(() => {
    void store.getState().refreshRequested();
    void userOptions().then(setUsers);
  }, [store]);
  const refresh = () => {
    void store.getState().refreshRequested();
    changed();
  };
  const add = async () => {
    if (!chosen) return;
    const a = await invoke('v1.groups.addUsers', { params: { id: group.id }, body: [chosen] });
    toastOutcome(a, `${users.find((u) => u.id === chosen)?.name ?? 'The user'} added to ${group.name}.`);
    setChosen('');
    refresh();
  };
  const remove = async (member: { id: string; fullName: string }) => {
    const a = await invoke('v1.groups.removeUsers', { params: { id: group.id }, body: [member.id] });
    toastOutcome(a, `${member.fullName} removed from ${group.name}.`);
    refresh();
  };
  return (
    <div className="panel">
      <h2>Members of {group.name}</h2>
      {group.type !== 'system' && (
        <div className="inline-form">
          <label htmlFor="add-member">Add user</label>
          <select id="add-member" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">Choose a user…</option>
            {users.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
          <button type="button" className="primary" onClick={() => void add()} disabled={!chosen}>
            Add to group
          </button>
        </div>
      )}
      <DataTable
        store={store}
        columns={[
          { key: 'fullName', label: 'Name', sort: 'fullName' },
          { key: 'email', label: 'E-mail', sort: 'email' },
        ]}
        actions={
          group.type === 'system'
            ? undefined
            : (m) => (
                <button type="button" onClick={() => void remove(m)}>
                  Remove
                </button>
              )
        }
      />
    </div>
  );
}
