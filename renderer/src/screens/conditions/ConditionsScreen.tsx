import { orNull, projectOptions, text, flag } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith, updateWith } from '../../components/crud-config';
import { ConditionEditor } from './ConditionEditor';

const config: ResourceConfig<'v1.conditions.list'> = {
  title: 'Conditions',
  noun: 'condition',
  listOp: 'v1.conditions.list',
  filterParam: 'name',
  filterLabel: 'name',
  columns: [
    { key: 'name', label: 'Name', sort: 'name' },
    { key: 'description', label: 'Description', sort: 'description' },
    {
      key: 'isActive',
      label: 'Active',
      sort: 'isActive',
      render: (r) => (r.isActive ? 'Yes' : 'No (never stops a run)'),
    },
    {
      key: 'modifiedDate',
      label: 'Changed',
      sort: 'modifiedDate',
      render: (r) => (r.modifiedDate ? new Date(r.modifiedDate).toLocaleString() : ''),
    },
  ],
  creates: [
    createWith('v1.conditions.create', {
      noun: 'condition',
      fields: [
        { name: 'name', label: 'Name', kind: 'text', required: true },
        { name: 'projectId', label: 'Project', kind: 'select', required: true, options: projectOptions },
        { name: 'description', label: 'Description', kind: 'textarea' },
        { name: 'isActive', label: 'Active', kind: 'checkbox' },
      ],
      initial: { isActive: true },
      toBody: (v) => ({
        name: text(v.name),
        projectId: text(v.projectId),
        description: orNull(v.description),
        isActive: flag(v.isActive),
      }),
    }),
  ],
  update: updateWith('v2.conditions.update', {
    fields: [
      { name: 'name', label: 'Name', kind: 'text', required: true },
      { name: 'description', label: 'Description', kind: 'textarea' },
      { name: 'isActive', label: 'Active (an inactive condition never stops a run)', kind: 'checkbox' },
    ],
    toForm: (r) => ({ ...r }),
    toBody: (v) => ({ name: text(v.name), description: orNull(v.description), isActive: flag(v.isActive) }),
  }),
  remove: { op: 'v1.conditions.delete', consequence: () => 'Its rules go with it.' },
  detail: (row) => <ConditionEditor key={row.id} conditionId={row.id} />,
};

/** Conditions: the list; a chosen one opens its rules below, with "test now". */
export function ConditionsScreen() {
  return <ResourceScreen config={config} />;
}
