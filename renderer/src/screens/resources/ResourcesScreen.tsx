import type { FieldDef } from '../../components/Form';
import { RESOURCE_TYPES } from '../../../../engine/wire';
import { choice, organizationOptions, orNull, text, type FormValues } from '../../components/options';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'type', label: 'Type', kind: 'select', required: true, choices: RESOURCE_TYPES },
  { name: 'url', label: 'URL', kind: 'url', required: true, hint: 'https://…' },
  { name: 'organizationId', label: 'Organization', kind: 'select', required: true, options: organizationOptions },
  { name: 'description', label: 'Description', kind: 'textarea' },
];
const body = (v: FormValues) => ({
  name: text(v.name),
  type: choice(RESOURCE_TYPES)(v.type),
  url: text(v.url),
  organizationId: text(v.organizationId),
  description: orNull(v.description),
});

const config = crudConfig({
  title: 'Resources',
  noun: 'resource',
  ops: {
    list: 'v1.resources.list',
    create: 'v1.resources.create',
    update: 'v1.resources.update',
    remove: 'v1.resources.delete',
  },
  columns: [
    { key: 'name', label: 'Name', sort: 'name' },
    { key: 'type', label: 'Type', sort: 'type' },
    // Only http(s) links are accepted by the engine, so the href cannot run script.
    {
      key: 'url',
      label: 'URL',
      sort: 'url',
      render: (r) => (
        <a href={r.url} target="_blank" rel="noreferrer noopener">
          {r.url}
        </a>
      ),
    },
    { key: 'description', label: 'Description', sort: 'description' },
  ],
  fields,
  initial: { type: 'link' },
  body,
});

export function ResourcesScreen() {
  return <ResourceScreen config={config} />;
}
