import { useCallback, useEffect, useState } from 'react';
import { invoke, type Answer } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastFailed, toastSucceeded } from '../../stores/feedback/toasts';

type FilterData = ResultOf<'app.filters.list'>[number];
type Meta = ResultOf<'app.analytics.get'>;
type StepKind = FilterData['values'][number]['kind'];
const STEP_KINDS: StepKind[] = ['field', 'variable', 'bookmark'];

/** A filter's steps, applied in order: field values, variable values and bookmarks. */
export function FilterEditor({ filterId, onBack }: { filterId: string; onBack: () => void }) {
  const [filter, setFilter] = useState<FilterData | null>(null);
  const [meta, setMeta] = useState<Meta | null>(null);
  const [appId, setAppId] = useState<string | null>(null);
  const [kind, setKind] = useState<StepKind>('field');
  const [target, setTarget] = useState('');
  const [choices, setChoices] = useState<string[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const [variableValue, setVariableValue] = useState('');

  const load = useCallback(async () => {
    const list = await invoke('app.filters.list', {});
    const f = (list.ok ? list.data : []).find((x) => x.id === filterId) ?? null;
    setFilter(f);
    if (!f) return;
    const conns = await invoke('app.connections.list', { query: { projectId: f.projectId } });
    const first = conns.ok ? conns.data[0] : undefined;
    if (first) {
      setAppId(first.analyticsAppId);
      const m = await invoke('app.analytics.get', { params: { id: first.analyticsAppId } });
      if (m.ok) setMeta(m.data);
    }
  }, [filterId]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    setPicked([]);
    const field = meta?.fields.find((f) => f.id === target);
    if (kind !== 'field' || !field || !appId) return setChoices([]);
    void invoke('app.analytics.fieldValues', { params: { id: appId }, body: { field: field.name, limit: 500 } }).then(
      (a) => setChoices(a.ok ? a.data.map((v) => String(v.value ?? '')) : []),
    );
  }, [target, kind, appId, meta]);

  if (!filter) return <p className="empty">Loading…</p>;
  const answer = (a: Answer<FilterData>, done?: string) => {
    if (!a.ok) return toastFailed(a.error ?? 'The filter was not changed.');
    setFilter(a.data);
    if (done) toastSucceeded(done);
  };
  const add = async () => {
    if (!target) return toastFailed('Choose what the step applies to.');
    if (kind === 'field')
      answer(
        await invoke('v2.filters.updateFieldValues', {
          params: { id: filterId },
          body: { analyticsFieldID: target, filterItemFieldValues: picked },
        }),
      );
    else if (kind === 'variable')
      answer(
        await invoke('v2.filters.updateVariableValues', {
          params: { id: filterId },
          body: { analyticsVariableID: target, variableValue },
        }),
      );
    else
      answer(
        await invoke('v2.filters.updateBookmarkValues', {
          params: { id: filterId },
          body: { analyticsBookmarkID: target },
        }),
      );
  };
  const targets = kind === 'field' ? meta?.fields : kind === 'variable' ? meta?.variables : meta?.bookmarks;

  return (
    <section className="screen">
      <header className="screen-head">
        <div>
          <button type="button" className="crumb" onClick={onBack}>
            ← Project
          </button>
          <h1>Filter: {filter.name}</h1>
        </div>
      </header>
      {!meta && <p className="hint">Connect the project to an analytics app to add steps.</p>}
      <div className="panel">
        <h2>Steps, in order</h2>
        <ol className="steps">
          {filter.values.map((v, i) => (
            <li key={v.id}>
              <span className="badge">{v.kind}</span> <strong>{v.targetName ?? v.targetId}</strong>
              {v.kind === 'field' && <> = {(v.fieldValues ?? []).join(', ') || '(nothing)'}</>}
              {v.kind === 'variable' && (
                <>
                  {' '}
                  := <code>{v.variableValue}</code>
                </>
              )}
              <span className="step-actions">
                <button
                  type="button"
                  className="small"
                  aria-label="Move up"
                  disabled={i === 0}
                  onClick={async () =>
                    answer(
                      await invoke('v2.filters.reorderValues', {
                        params: { id: filterId },
                        body: { id: v.id, direction: 'Up' },
                      }),
                    )
                  }
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="small"
                  aria-label="Move down"
                  disabled={i === filter.values.length - 1}
                  onClick={async () =>
                    answer(
                      await invoke('v2.filters.reorderValues', {
                        params: { id: filterId },
                        body: { id: v.id, direction: 'Down' },
                      }),
                    )
                  }
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="small danger"
                  aria-label={`Remove step ${i + 1}`}
                  onClick={async () => {
                    const what = v.targetName ?? 'this step';
                    if (
                      await askConfirm({
                        title: 'Remove the step?',
                        message: `Step ${i + 1} (${v.kind} ${what}) will be removed from “${filter.name}”. Reports applying the filter change with it.`,
                        confirmLabel: 'Remove step',
                      })
                    )
                      answer(
                        await invoke('v2.filters.deleteValues', { params: { id: filterId }, body: [v.id] }),
                        `Step ${i + 1} removed.`,
                      );
                  }}
                >
                  ×
                </button>
              </span>
            </li>
          ))}
          {!filter.values.length && <li className="empty">No steps yet.</li>}
        </ol>
      </div>
      {meta && (
        <div className="panel">
          <h2>Add a step</h2>
          <div className="inline-form">
            <label htmlFor="step-kind">Kind</label>
            <select
              id="step-kind"
              value={kind}
              onChange={(e) => {
                setKind(STEP_KINDS.find((k) => k === e.target.value) ?? 'field');
                setTarget('');
              }}
            >
              <option value="field">Select field values</option>
              <option value="variable">Set a variable</option>
              <option value="bookmark">Apply a bookmark</option>
            </select>
            <label htmlFor="step-target">Of</label>
            <select id="step-target" value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">Choose…</option>
              {targets?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          {kind === 'field' && target && (
            <div className="multi values-pick" role="group" aria-label="Values">
              {choices.map((c) => (
                <label key={c} className="chip">
                  <input
                    type="checkbox"
                    checked={picked.includes(c)}
                    onChange={(e) => setPicked(e.target.checked ? [...picked, c] : picked.filter((x) => x !== c))}
                  />
                  {c}
                </label>
              ))}
            </div>
          )}
          {kind === 'variable' && (
            <div className="inline-form">
              <label htmlFor="var-value">Value or expression</label>
              <input id="var-value" value={variableValue} onChange={(e) => setVariableValue(e.target.value)} />
            </div>
          )}
          <div className="form-actions">
            <button type="button" className="primary" onClick={() => void add()}>
              Add step
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
