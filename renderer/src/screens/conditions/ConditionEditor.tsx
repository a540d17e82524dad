import { useCallback, useEffect, useMemo, useState } from 'react';
import { TestForValue, type TestValue } from './TestForValue';
import { invoke } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { Form, submitOutcome, type FieldDef, type FormValues, type Option } from '../../components/Form';
import { flag, text } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome, toastSucceeded } from '../../stores/feedback/toasts';
import { PermissionsDialog } from '../../components/PermissionsDialog';

type Condition = ResultOf<'app.conditions.get'>;
type Outcome = ResultOf<'app.conditions.test'> & { testedFor?: TestValue | null };
type Rule = Condition['rules'][number];

/** A rule as the form shows it: its one value (a variable compared, or a chart with or without data). */
const ruleForm = (r: Rule | null) => {
  const v = r?.conditionRuleValues[0];
  if (!r || !v) return { type: 'Variable', operator: '>', chartHasValue: true };
  return {
    name: r.name,
    connectionId: r.connectionId,
    type: v.type,
    variable: v.variable ?? '',
    operator: v.operator ?? '>',
    comparisonValue: v.comparisonValue ?? '',
    chart: v.chart ?? '',
    chartHasValue: v.chartHasValue ?? true,
  };
};
const OPERATORS = ['=', '<>', '>', '>=', '<', '<='] as const;

const shown = (v: string | number | null) =>
  typeof v === 'number' ? v.toLocaleString(undefined, { maximumFractionDigits: 4 }) : (v ?? 'no value');

/** The variables and charts of each app the project connects to, by connection: what a rule may compare. */
function useAppItems(projectId: string | undefined) {
  const [items, setItems] = useState<
    Record<string, { label: string; appId: string; variables: string[]; charts: string[]; fields: string[] }>
  >({});
  useEffect(() => {
    if (!projectId) return;
    let current = true;
    void (async () => {
      const a = await invoke('app.connections.list', { query: { projectId } });
      if (!a.ok) return;
      const entries = await Promise.all(
        a.data.map(async (x) => {
          const app = await invoke('app.analytics.get', { params: { id: x.analyticsAppId } });
          return [
            x.id,
            {
              label: `${x.name} (${x.appName ?? 'app'})`,
              appId: x.analyticsAppId,
              fields: app.ok ? app.data.fields.map((f) => f.name) : [],
              variables: app.ok ? app.data.variables.map((v) => v.name) : [],
              charts: app.ok ? app.data.charts.map((ch) => ch.name) : [],
            },
          ] as const;
        }),
      );
      if (current) setItems(Object.fromEntries(entries));
    })();
    return () => {
      current = false;
    };
  }, [projectId]);
  return items;
}

/** A condition's rules (each a comparison on an app), added, edited and removed in a dialog, and tested now on live data. */
export function ConditionEditor({ conditionId }: { conditionId: string }) {
  const [c, setC] = useState<Condition | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [testing, setTesting] = useState(false);
  const [testFor, setTestFor] = useState<TestValue | null>(null);
  const [guarding, setGuarding] = useState(false);
  const [open, setOpen] = useState<{ rule: Rule | null } | null>(null);
  const load = useCallback(async () => {
    const a = await invoke('app.conditions.get', { params: { id: conditionId } });
    if (a.ok) setC(a.data);
  }, [conditionId]);
  useEffect(() => void load(), [load]);
  const projectId = c?.projectId;
  const appItems = useAppItems(projectId);
  const ruleFields = useMemo((): FieldDef[] => {
    const connections = async (): Promise<Option[]> =>
      Object.entries(appItems).map(([id, x]) => ({ id, name: x.label }));
    const isVariable = (v: FormValues) => v.type !== 'Chart';
    return [
      { name: 'name', label: 'Rule name', kind: 'text', required: true },
      { name: 'connectionId', label: 'Read from', kind: 'select', required: true, options: connections },
      { name: 'type', label: 'Compare', kind: 'select', required: true, choices: ['Variable', 'Chart'] },
      // The app's own variables and charts, of the connection chosen: picked, not typed.
      {
        name: 'variable',
        label: 'Variable',
        kind: 'select',
        choicesWhen: (v) => appItems[String(v.connectionId ?? '')]?.variables ?? [],
        shownWhen: isVariable,
      },
      { name: 'operator', label: 'Operator', kind: 'select', choices: OPERATORS, shownWhen: isVariable },
      { name: 'comparisonValue', label: 'Value to compare with', kind: 'text', shownWhen: isVariable },
      {
        name: 'chart',
        label: 'Chart',
        kind: 'select',
        choicesWhen: (v) => appItems[String(v.connectionId ?? '')]?.charts ?? [],
        shownWhen: (v) => !isVariable(v),
      },
      {
        name: 'chartHasValue',
        label: 'The chart must have data (unticked: must have none)',
        kind: 'checkbox',
        shownWhen: (v) => !isVariable(v),
      },
    ];
  }, [appItems]);
  if (!c) return <p className="empty">Loading…</p>;

  const test = async () => {
    setTesting(true);
    const a = await invoke('app.conditions.test', {
      params: { id: c.id },
      body: testFor ? { selections: { [testFor.field]: [testFor.value] } } : {},
    });
    setTesting(false);
    if (a.ok) setOutcome({ ...a.data, testedFor: testFor });
    else toastOutcome(a, '');
  };
  const removeRule = async (rule: Condition['rules'][number]) => {
    const yes = await askConfirm({
      title: 'Delete rule?',
      message: `The rule “${rule.name}” will be deleted.`,
      confirmLabel: 'Delete rule',
    });
    if (!yes) return;
    toastOutcome(
      await invoke('v1.conditionRules.delete', { params: { conditionId: c.id }, body: [rule.id] }),
      `Deleted rule “${rule.name}”.`,
    );
    setOutcome(null);
    void load();
  };
  // The value is picked among the first rule's app's fields (a task iterates over one app's field).
  const testedApp = c.rules[0] ? appItems[c.rules[0].connectionId] : undefined;
  const verdict = (id: string) => outcome?.rules.find((r) => r.id === id);
  return (
    <div className="panel">
      <div className="block-head">
        <h2>Rules of “{c.name}”</h2>
        <span className="card-actions">
          <button type="button" onClick={() => setGuarding(true)}>
            Permissions
          </button>
          <button type="button" className="primary" disabled={testing || !c.rules.length} onClick={() => void test()}>
            {testing ? 'Testing…' : 'Test now'}
          </button>
        </span>
      </div>
      <TestForValue
        appId={testedApp?.appId ?? null}
        fields={testedApp?.fields ?? []}
        value={testFor}
        changed={(v) => {
          setTestFor(v);
          setOutcome(null);
        }}
      />
      {guarding && <PermissionsDialog kind="condition" id={c.id} name={c.name} onClose={() => setGuarding(false)} />}
      {outcome && (
        <p className={outcome.holds ? 'notice' : 'error-banner'} role="status">
          {outcome.testedFor ? `For ${outcome.testedFor.field} = ${outcome.testedFor.value}, t` : 'T'}
          {outcome.holds
            ? 'he condition holds now: its reports would run.'
            : 'he condition fails now: its reports would be left out.'}
        </p>
      )}
      <ul className="cards">
        {c.rules.map((r) => (
          <li key={r.id} className="stacked">
            <strong>{r.name}</strong> <span className="badge">{r.connection}</span>
            <span className="card-actions">
              <button
                type="button"
                className="small"
                aria-label={`Edit rule ${r.name}`}
                onClick={() => setOpen({ rule: r })}
              >
                Edit
              </button>
              <button
                type="button"
                className="small danger"
                aria-label={`Delete rule ${r.name}`}
                onClick={() => void removeRule(r)}
              >
                Delete
              </button>
            </span>
            <ul className="rule-values">
              {r.conditionRuleValues.map((v) => {
                const seen = verdict(r.id)?.values.find((x) => x.id === v.id);
                return (
                  <li key={v.id}>
                    {v.type === 'Chart'
                      ? `chart ${v.chart} ${v.chartHasValue ? 'has data' : 'has no data'}`
                      : `${v.variable} ${v.operator} ${v.comparisonValue}`}
                    {seen && (
                      <span className={seen.holds ? 'verdict ok' : 'verdict fail'}>
                        {' '}
                        → {shown(seen.actual)} ({seen.holds ? 'holds' : 'fails'})
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
        {!c.rules.length && <li className="empty">No rules yet: a condition without rules always holds.</li>}
      </ul>
      <button type="button" onClick={() => setOpen({ rule: null })}>
        Add rule
      </button>
      {open && (
        <Dialog title={open.rule ? `Edit rule “${open.rule.name}”` : 'Add a rule'} onClose={() => setOpen(null)}>
          <Form
            fields={ruleFields}
            initial={ruleForm(open.rule)}
            submitLabel={open.rule ? 'Save rule' : 'Add rule'}
            onCancel={() => setOpen(null)}
            onSubmit={async (v) => {
              if (
                c.rules.some(
                  (r) => r.id !== open.rule?.id && r.name.trim().toLowerCase() === text(v.name).trim().toLowerCase(),
                )
              ) {
                return {
                  error: 'Check the fields marked',
                  errorDetails: [
                    { field: 'body.name', message: 'is already the name of another rule of this condition' },
                  ],
                };
              }
              const isChart = v.type === 'Chart';
              const body = {
                conditionId: c.id,
                name: text(v.name),
                connectionId: text(v.connectionId),
                conditionRuleValues: [
                  isChart
                    ? { type: 'Chart' as const, chart: text(v.chart), chartHasValue: flag(v.chartHasValue), order: 0 }
                    : {
                        type: 'Variable' as const,
                        variable: text(v.variable),
                        operator: (text(v.operator) || null) as never,
                        comparisonValue: text(v.comparisonValue),
                        order: 0,
                      },
                ],
              };
              const a = open.rule
                ? await invoke('v1.conditionRules.update', { params: { conditionRuleId: open.rule.id }, body })
                : await invoke('v1.conditionRules.upsert', { params: { conditionId: c.id }, body });
              if (!a.ok) {
                // The rule's one value is "conditionRuleValues.0"; its errors belong to the fields of this form.
                return submitOutcome({
                  ...a,
                  errorDetails: a.errorDetails.map((d) => ({
                    ...d,
                    field: d.field.replace('body.conditionRuleValues.0.', 'body.'),
                  })),
                });
              }
              toastSucceeded(open.rule ? `Saved rule “${text(v.name)}”.` : `Added rule “${text(v.name)}”.`);
              setOpen(null);
              setOutcome(null);
              void load();
              return null;
            }}
          />
        </Dialog>
      )}
    </div>
  );
}
