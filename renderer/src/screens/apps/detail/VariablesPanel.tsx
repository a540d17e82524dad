import { useState } from 'react';
import { IfMayChangeApp, useMayChangeApp } from './app-change';
import { invoke } from '../../../bridge';
import { Dialog } from '../../../components/Dialog';
import { Form, submitOutcome, type FieldDef } from '../../../components/Form';
import { text } from '../../../components/options';
import type { AppMeta } from './use-analytics-app';
import { RemoveItemButton } from './RemoveItemButton';

const VARIABLE_FIELDS: FieldDef[] = [
  { name: 'name', label: 'Variable name', kind: 'text', required: true },
  {
    name: 'definition',
    label: 'Definition',
    kind: 'text',
    required: true,
    hint: 'For example Sum(Sales) / Count(Distinct Customer)',
  },
];

/** The app's variables with their values under the selections; add, edit in place, delete. */
export function VariablesPanel(props: {
  id: string;
  meta: AppMeta;
  varValues: Record<string, string>;
  changed: () => void;
}) {
  const { id, meta, varValues } = props;
  const load = props.changed;
  const mayChange = useMayChangeApp();
  const [editingVariable, setEditingVariable] = useState<AppMeta['variables'][number] | null>(null);
  return (
    <>
      <h2>Variables</h2>
      <div className="table-scroll">
        <table>
          <tbody>
            {meta.variables.map((v) => (
              <tr key={v.id}>
                <td>
                  <code>{v.name}</code>
                </td>
                <td>
                  <code>{v.definition}</code>
                </td>
                <td className="num">{varValues[v.name] ?? ''}</td>
                {mayChange && (
                  <td className="actions">
                    <div className="row-actions">
                      <button
                        type="button"
                        aria-label={`Edit variable ${v.name}`}
                        onClick={() => setEditingVariable(v)}
                      >
                        Edit
                      </button>
                      <RemoveItemButton appId={id} kind="Variable" item={v} removed={load} />
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editingVariable && (
        <Dialog title={`Edit variable ${editingVariable.name}`} onClose={() => setEditingVariable(null)}>
          <Form
            fields={VARIABLE_FIELDS}
            initial={{ name: editingVariable.name, definition: editingVariable.definition }}
            submitLabel="Save variable"
            onCancel={() => setEditingVariable(null)}
            onSubmit={async (v) => {
              // The same variable, changed in place (its id kept): reports that use it by name follow a rename only if they are edited too.
              const a = await invoke('app.analytics.saveVariable', {
                params: { id },
                body: { id: editingVariable.id, name: text(v.name), definition: text(v.definition) },
              });
              if (a.ok) {
                setEditingVariable(null);
                void load();
              }
              return submitOutcome(a);
            }}
          />
        </Dialog>
      )}
      <IfMayChangeApp>
        <Form
          fields={VARIABLE_FIELDS}
          initial={{}}
          submitLabel="Add variable"
          clearOnSuccess
          onSubmit={async (v) => {
            const a = await invoke('app.analytics.saveVariable', {
              params: { id },
              body: { name: text(v.name), definition: text(v.definition) },
            });
            if (a.ok) void load();
            return submitOutcome(a);
          }}
        />
      </IfMayChangeApp>
    </>
  );
}
