import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import { Form, submitOutcome, type Option } from '../../components/Form';
import { flag, text } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome } from '../../stores/feedback/toasts';
import { PermissionsDialog } from '../../components/PermissionsDialog';

type Condition = ResultOf<'app.conditions.get'>;
type Outcome = ResultOf<'app.conditions.test'>;
const OPERATORS = ['=', '<>', '>', '>=', '<', '<='] as const;

const shown = (v: string | number | null) => (typeof v === 'number' ? v.toLocaleString(undefined, { maximumFractionDigits: 4 }) : (v ?? 'no value'));

/** A condition's rules (each a comparison on an app), added and removed, and tested now on live data. */
export function ConditionEditor({ conditionId }: { conditionId: string }) {
  const [c, setC] = useState<Condition | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [testing, setTesting] = useState(false);
  const [guarding, setGuarding] = useState(false);
  const load = useCallback(async () => {
    const a = await invoke('app.conditions.get', { params: { id: conditionId } });
    if (a.ok) setC(a.data);
  }, [conditionId]);
  useEffect(() => void load(), [load]);
  if (!c) return <p className="empty">Loading…</p>;

  const connections = async (): Promise<Option[]> => {
    const a = await invoke('app.connections.list', { query: { projectId: c.projectId } });
    return a.ok ? a.data.map((x) => ({ id: x.id, name: `${x.name} (${x.appName ?? 'app'})` })) : [];
  };
  const test = async () => {
    setTesting(true);
    const a = await invoke('app.conditions.test', { params: { id: c.id }, body: {} });
    setTesting(false);
    if (a.ok) setOutcome(a.data);
    else toastOutcome(a, '');
  };
  const removeRule = async (rule: Condition['rules'][number]) => {
    const yes = await askConfirm({ title: 'Delete rule?', message: `The rule “${rule.name}” will be deleted.`, confirmLabel: 'Delete rule' });
    if (!yes) return;
    toastOutcome(await invoke('v1.conditionRules.delete', { params: { conditionId: c.id }, body: [rule.id] }), `Deleted rule “${rule.name}”.`);
    setOutcome(null);
    void load();
  };
  const verdict = (id: string) => outcome?.rules.find((r) => r.id === id);
  return (
    <div className="panel">
      <div className="block-head">
        <h2>Rules of “{c.name}”</h2>
        <span className="card-actions">
          <button type="button" onClick={() => setGuarding(true)}>Permissions</button>
          <button type="button" className="primary" disabled={testing || !c.rules.length} onClick={() => void test()}>{testing ? 'Testing…' : 'Test now'}</button>
        </span>
      </div>
      {guarding && <PermissionsDialog kind="condition" id={c.id} name={c.name} onClose={() => setGuarding(false)} />}
      {outcome && (
        <p className={outcome.holds ? 'notice' : 'error-banner'} role="status">
          {outcome.holds ? 'The condition holds now: its reports would run.' : 'The condition fails now: its reports would be left out.'}
        </p>
      )}
      <ul className="cards">
        {c.rules.map((r) => (
          <li key={r.id} className="stacked">
            <strong>{r.name}</strong> <span className="badge">{r.connection}</span>
            <span className="card-actions">
              <button type="button" className="small danger" aria-label={`Delete rule ${r.name}`} onClick={() => void removeRule(r)}>Delete</button>
            </span>
            <ul className="rule-values">
              {r.conditionRuleValues.map((v) => {
                const seen = verdict(r.id)?.values.find((x) => x.id === v.id);
                return (
                  <li key={v.id}>
                    {v.type === 'Chart' ? `chart ${v.chart} ${v.chartHasValue ? 'has data' : 'has no data'}` : `${v.variable} ${v.operator} ${v.comparisonValue}`}
                    {seen && <span className={seen.holds ? 'verdict ok' : 'verdict fail'}> → {shown(seen.actual)} ({seen.holds ? 'holds' : 'fails'})</span>}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
        {!c.rules.length && <li className="empty">No rules yet: a condition without rules always holds.</li>}
      </ul>
      <Form
        fields={[
          { name: 'name', label: 'Rule name', kind: 'text', required: true },
          { name: 'connectionId', label: 'Read from', kind: 'select', required: true, options: connections },
          { name: 'type', label: 'Compare', kind: 'select', required: true, choices: ['Variable', 'Chart'] },
          { name: 'variable', label: 'Variable (for a variable rule)', kind: 'text', hint: 'Such as vTotalSales' },
          { name: 'operator', label: 'Operator', kind: 'select', choices: OPERATORS },
          { name: 'comparisonValue', label: 'Value to compare with', kind: 'text' },
          { name: 'chart', label: 'Chart (for a chart rule)', kind: 'text', hint: 'The chart\'s name' },
          { name: 'chartHasValue', label: 'The chart must have data (unticked: must have none)', kind: 'checkbox' },
        ]}
        initial={{ type: 'Variable', operator: '>', chartHasValue: true }}
        submitLabel="Add rule"
        clearOnSuccess
        onSubmit={async (v) => {
          const isChart = v.type === 'Chart';
          const a = await invoke('v1.conditionRules.upsert', {
            params: { conditionId: c.id },
            body: {
              conditionId: c.id, name: text(v.name), connectionId: text(v.connectionId),
              conditionRuleValues: [isChart ? { type: 'Chart', chart: text(v.chart), chartHasValue: flag(v.chartHasValue), order: 0 } : { type: 'Variable', variable: text(v.variable), operator: (text(v.operator) || null) as never, comparisonValue: text(v.comparisonValue), order: 0 }],
            },
          });
          if (!a.ok) {
            // The rule's one value is "conditionRuleValues.0"; its errors belong to the fields of this form.
            return submitOutcome({ ...a, errorDetails: a.errorDetails.map((d) => ({ ...d, field: d.field.replace('body.conditionRuleValues.0.', 'body.') })) });
          }
          setOutcome(null);
          void load();
          return null;
        }}
      />
    </div>
  );
}
