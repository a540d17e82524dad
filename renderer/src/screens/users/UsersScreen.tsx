import { useState } from 'react';
import { invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { Form, submitOutcome, type FieldDef } from '../../components/Form';
import {
  flag,
  groupOptions,
  idList,
  idsOf,
  orNull,
  organizationOptions,
  roleOptions,
  text,
  type FormValues,
} from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith } from '../../components/crud-config';
import type { OpId } from '../../../../engine/catalogue';
import { selectMayCall, useSession } from '../../stores/session/session.store';
import { InviteDialog } from './InviteDialog';
import { offerDeletion, TransferDialog } from './TransferDialog';

type Person = RowOf<'v1.users.list'>;
const names = (list: { name: string }[]) => list.map((x) => x.name).join(', ');

/** A person's fields; the password's hint says what an empty one does, which differs between a new person and one edited. */
const personFieldsWhen = (editing: boolean): FieldDef[] => [
  { name: 'firstName', label: 'First name', kind: 'text', required: true },
  { name: 'lastName', label: 'Last name', kind: 'text', required: true },
  { name: 'email', label: 'E-mail', kind: 'email' },
  {
    name: 'password',
    label: 'Password',
    kind: 'password',
    hint: editing
      ? 'At least 8 characters; leave empty to keep the current one'
      : 'At least 8 characters; leave empty for someone who signs in another way (an invitation, the company sign-in)',
  },
  { name: 'isActive', label: 'Active', kind: 'checkbox' },
  { name: 'organizations', label: 'Organizations', kind: 'multi', required: true, options: organizationOptions },
  { name: 'groups', label: 'Groups', kind: 'multi', options: groupOptions },
];
const userFieldsWhen = (editing: boolean): FieldDef[] => [
  ...personFieldsWhen(editing),
  { name: 'roles', label: 'Roles', kind: 'multi', options: roleOptions },
];

const personBody = (v: FormValues) => ({
  firstName: text(v.firstName),
  lastName: text(v.lastName),
  email: orNull(v.email),
  password: orNull(v.password),
  isActive: flag(v.isActive),
  organizations: idList(v.organizations),
  groups: idList(v.groups),
});
const userBody = (v: FormValues) => ({ ...personBody(v), roles: idList(v.roles) });

function ConvertDialog({ row, done }: { row: Person; done: () => void }) {
  return (
    <Dialog title={`Convert ${row.fullName} to a user`} onClose={done}>
      <Form
        fields={[
          { name: 'roles', label: 'Roles', kind: 'multi', required: true, options: roleOptions },
          { name: 'language', label: 'Language', kind: 'text', required: true },
          { name: 'domain', label: 'Domain account', kind: 'text' },
          { name: 'isActive', label: 'Active', kind: 'checkbox' },
        ]}
        initial={{ roles: [], language: row.isoLanguage ?? 'en', isActive: true }}
        submitLabel="Convert"
        onCancel={done}
        onSubmit={async (v) => {
          const a = await invoke('v1.recipients.convertToUser', {
            params: { id: row.id },
            body: {
              roles: idList(v.roles),
              language: text(v.language),
              domain: orNull(v.domain),
              isActive: flag(v.isActive),
            },
          });
          if (a.ok) done();
          return submitOutcome(a);
        }}
      />
    </Dialog>
  );
}

export function UsersScreen() {
  const [converting, setConverting] = useState<{ row: Person; reload: () => void } | null>(null);
  const [inviting, setInviting] = useState<(() => void) | null>(null);
  const [transferring, setTransferring] = useState<{ row: Person; reload: () => void } | null>(null);
  const me = useSession((s) => s.me);
  const may = (op: OpId) => selectMayCall(op)({ me });
  const config: ResourceConfig<'v1.users.list'> = {
    title: 'Users and recipients',
    noun: 'user',
    listOp: 'v1.users.list',
    filterParam: 'full_name',
    filterLabel: 'name',
    columns: [
      { key: 'fullName', label: 'Name', sort: 'FullName' },
      { key: 'email', label: 'E-mail', sort: 'Email' },
      { key: 'type', label: 'Type', sort: 'Type' },
      { key: 'isActive', label: 'Active', sort: 'IsActive', render: (r) => (r.isActive ? 'Yes' : 'No') },
      { key: 'roles', label: 'Roles', render: (r) => names(r.roles) },
      { key: 'groups', label: 'Groups', sort: 'Groups', render: (r) => names(r.groups) },
    ],
    creates: [
      createWith('v1.users.create', {
        noun: 'user',
        fields: userFieldsWhen(false),
        initial: { isActive: true, organizations: [], groups: [], roles: [] },
        toBody: userBody,
      }),
      createWith('v1.recipients.create', {
        noun: 'recipient',
        fields: personFieldsWhen(false),
        initial: { isActive: true, organizations: [], groups: [] },
        toBody: personBody,
      }),
    ],
    // Users and recipients are edited by their own operations.
    update: {
      op: (r) => (r.type === 'recipient' ? 'v1.recipients.update' : 'v1.users.update'),
      fields: (r) => (r.type === 'recipient' ? personFieldsWhen(true) : userFieldsWhen(true)),
      toForm: (r) => ({
        ...r,
        password: '',
        organizations: idsOf(r.organizations),
        groups: idsOf(r.groups),
        roles: idsOf(r.roles),
      }),
      submit: (v, r) =>
        r.type === 'recipient'
          ? invoke('v1.recipients.update', { params: { id: r.id }, body: personBody(v) })
          : invoke('v1.users.update', { params: { id: r.id }, body: userBody(v) }),
    },
    remove: {
      op: 'v2.users.delete',
      run: (r) => invoke('v2.users.delete', { params: { id: r.id } }),
      consequence: () => 'They lose access at once and leave every group and organization.',
    },
    rowActions: (row, reload) => (
      <>
        {row.type === 'recipient' && (
          <button type="button" onClick={() => setConverting({ row, reload })}>
            Convert to user
          </button>
        )}
        {row.type === 'user' && !row.isTenantOwner && may('v2.users.transfer') && (
          <button type="button" onClick={() => setTransferring({ row, reload })}>
            Transfer…
          </button>
        )}
      </>
    ),
    headerActions: (reload) =>
      may('v2.users.invite') && (
        <button type="button" onClick={() => setInviting(() => reload)}>
          Invite people
        </button>
      ),
  };
  return (
    <>
      <ResourceScreen config={config} />
      {inviting && (
        <InviteDialog
          done={(n) => {
            if (n) inviting();
            setInviting(null);
          }}
        />
      )}
      {transferring && (
        <TransferDialog
          from={transferring.row}
          done={(moved) => {
            setTransferring(null);
            if (!moved) return;
            transferring.reload();
            void offerDeletion(transferring.row, transferring.reload);
          }}
        />
      )}
      {converting && (
        <ConvertDialog
          row={converting.row}
          done={() => {
            converting.reload();
            setConverting(null);
          }}
        />
      )}
    </>
  );
}
