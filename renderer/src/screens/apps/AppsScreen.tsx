import type { FieldDef } from '../../components/Form';
import { flag, orNull, text, type FormValues } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith, updateWith } from '../../components/crud-config';
import { useNav } from '../../stores/nav/nav.store';
import { AppDetail } from './AppDetail';

const ROOT_FOLDER = '00000000-0000-0000-0000-000000000000';
const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  {
    name: 'appId',
    label: 'App id',
    kind: 'text',
    required: true,
    hint: 'Lower-case letters, digits and dashes, such as sales-2026',
  },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'stream', label: 'Stream', kind: 'text' },
];
const body = (v: FormValues) => ({
  name: text(v.name),
  appId: text(v.appId),
  description: orNull(v.description),
  stream: orNull(v.stream),
  folderId: orNull(v.folderId) ?? ROOT_FOLDER,
  folderPath: orNull(v.folderPath) ?? '/',
  allowAnalyticsSenseApp: flag(v.allowAnalyticsSenseApp),
  allowMashup: flag(v.allowMashup),
  defaultOpen: orNull(v.defaultOpen) ?? 'Overview',
});

export function AppsScreen() {
  const path = useNav((s) => s.path);
  const screenChosen = useNav((s) => s.screenChosen);
  if (path[0]) return <AppDetail id={path[0]} />;
  const config: ResourceConfig<'v1.analyticsApps.list'> = {
    title: 'Analytics apps',
    noun: 'analytics app',
    listOp: 'v1.analyticsApps.list',
    filterParam: 'name',
    filterLabel: 'name',
    columns: [
      { key: 'name', label: 'Name', sort: 'Name', render: (r) => <a href={`#/apps/${r.id}`}>{r.name}</a> },
      { key: 'appId', label: 'App id' },
      { key: 'stream', label: 'Stream', sort: 'Stream' },
      { key: 'folderPath', label: 'Folder', sort: 'FolderPath' },
    ],
    creates: [
      createWith('v1.analyticsApps.create', {
        noun: 'analytics app',
        fields,
        initial: {},
        toBody: body,
        created: (app) => screenChosen('apps', app.id),
      }),
    ],
    update: updateWith('v1.analyticsApps.update', { fields, toForm: (r) => ({ ...r }), toBody: (v) => body(v) }),
    rowActions: (row) => (
      <button type="button" onClick={() => screenChosen('apps', row.id)}>
        Open
      </button>
    ),
  };
  return <ResourceScreen config={config} />;
}
