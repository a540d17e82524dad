import { useState } from 'react';
import { flag, orNull, text } from '../../components/options';
import type { FieldDef } from '../../components/Form';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith, updateWith } from '../../components/crud-config';
import { PermissionMatrix } from './PermissionMatrix';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'allProjects', label: 'Applies to all projects', kind: 'checkbox' },
  { name: 'isActive', label: 'Active', kind: 'checkbox' },
];

const META = new Set(['id', 'createdDate', 'modifiedDate']);

export function RolesScreen() {
  const [version, setVersion] = useState(0);
  const bump = () => setVersion((v) => v + 1);
  // A tick in the matrix changes the count in the list above: the list is read again.
  const [listVersion, setListVersion] = useState(0);
  const config: ResourceConfig<'v1.roles.list'> = {
    title: 'Roles',
    noun: 'role',
    listOp: 'v1.roles.list',
    filterParam: 'name',
    filterLabel: 'name',
    columns: [
      { key: 'name', label: 'Name', sort: 'Name' },
      { key: 'type', label: 'Type', sort: 'Type' },
      { key: 'isActive', label: 'Active', render: (r) => (r.isActive ? 'Yes' : 'No') },
      {
        key: 'permissions',
        label: 'Permissions granted',
        render: (r) => Object.entries(r.permissions).filter(([k, x]) => !META.has(k) && x === true).length,
      },
    ],
    creates: [
      createWith('v1.roles.create', {
        noun: 'role',
        fields,
        initial: { isActive: true, allProjects: true },
        toBody: (v) => ({
          name: text(v.name),
          description: orNull(v.description),
          allProjects: flag(v.allProjects),
          isActive: flag(v.isActive),
          permissions: {},
        }),
        created: bump,
      }),
    ],
    update: updateWith('v1.roles.update', {
      fields,
      toForm: (r) => ({ ...r }),
      toBody: (v, r) => ({
        name: text(v.name),
        description: orNull(v.description),
        allProjects: flag(v.allProjects),
        isActive: flag(v.isActive),
        projects: r.projects,
        permissions: Object.fromEntries(Object.entries(r.permissions).filter(([k]) => !META.has(k))),
      }),
    }),
  };
  return (
    <>
      <ResourceScreen key={listVersion} config={config} />
      <PermissionMatrix version={version} changed={() => setListVersion((v) => v + 1)} />
    </>
  );
}
