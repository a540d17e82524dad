import { useState } from 'react';
import { orNull } from '../../components/options';
import type { FieldDef } from '../../components/Form';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { PermissionMatrix } from './PermissionMatrix';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'allProjects', label: 'Applies to all projects', kind: 'checkbox' },
  { name: 'isActive', label: 'Active', kind: 'checkbox' },
];

export function RolesScreen() {
  const [version, setVersion] = useState(0);
  const bump = () => setVersion((v) => v + 1);
  const config: ResourceConfig = {
    title: 'Roles',
    noun: 'role',
    listOp: 'v1.roles.list',
    filterParam: 'name',
    filterLabel: 'name',
    columns: [
      { key: 'name', label: 'Name', sort: 'Name' },
      { key: 'type', label: 'Type', sort: 'Type' },
      { key: 'isActive', label: 'Active', render: (r) => (r.isActive ? 'Yes' : 'No') },
      { key: 'granted', label: 'Permissions granted', render: (r) => Object.values(r.permissions as object).filter((x) => x === true).length },
    ],
    creates: [{
      noun: 'role', op: 'v1.roles.create', permission: 'createSystem', fields, initial: { isActive: true, allProjects: true },
      toBody: (v) => ({ name: v.name, description: orNull(v.description), allProjects: !!v.allProjects, isActive: !!v.isActive, permissions: {} }),
      created: bump,
    }],
    update: {
      op: 'v1.roles.update', permission: 'editSystem', fields, toForm: (r) => ({ ...r }),
      toBody: (v, r) => ({ name: v.name, description: orNull(v.description), allProjects: !!v.allProjects, isActive: !!v.isActive, projects: r.projects, permissions: r.permissions }),
    },
  };
  return (
    <>
      <ResourceScreen config={config} />
      <PermissionMatrix version={version} />
    </>
  );
}
