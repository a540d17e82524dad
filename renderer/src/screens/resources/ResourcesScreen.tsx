import type { FieldDef } from '../../components/Form';
import { organizationOptions, orNull } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'type', label: 'Type', kind: 'text', required: true, hint: 'For example link, document, video' },
  { name: 'url', label: 'URL', kind: 'text', required: true },
  { name: 'organizationId', label: 'Organization', kind: 'select', required: true, options: organizationOptions },
  { name: 'description', label: 'Description', kind: 'textarea' },
];
const body = (v: Record<string, unknown>) => ({ name: v.name, type: v.type, url: v.url, organizationId: v.organizationId, description: orNull(v.description) });

const config: ResourceConfig = {
  title: 'Resources',
  noun: 'resource',
  listOp: 'v1.resources.list',
  filterParam: 'name',
  filterLabel: 'name',
  columns: [
    { key: 'name', label: 'Name', sort: 'name' },
    { key: 'type', label: 'Type', sort: 'type' },
    // Only http(s) links are accepted by the engine, so the href cannot run script.
    { key: 'url', label: 'URL', sort: 'url', render: (r) => <a href={String(r.url)} target="_blank" rel="noreferrer noopener">{String(r.url)}</a> },
    { key: 'description', label: 'Description', sort: 'description' },
  ],
  creates: [{ noun: 'resource', op: 'v1.resources.create', permission: 'createSystem', fields, initial: { type: 'link' }, toBody: body }],
  update: { op: 'v1.resources.update', permission: 'editSystem', fields, toForm: (r) => ({ ...r }), toBody: body },
  remove: { op: 'v1.resources.delete', permission: 'deleteSystem' },
};

export function ResourcesScreen() {
  return <ResourceScreen config={config} />;
}
