import { useEffect, useState } from 'react';
import { invoke } from '../../../bridge';
import type { ResultOf } from '../../../../../engine/catalogue';
import type { AppMeta } from './use-analytics-app';

export type Selections = Record<string, string[]>;

const shown = (v: unknown) =>
  typeof v === 'number' ? v.toLocaleString(undefined, { maximumFractionDigits: 2 }) : String(v ?? '—');

/**
 * What the app answers under the selections: the chosen field's values (matching the search), each
 * variable's value, the chosen chart's data and picture. Answers to an earlier state are dropped (a
 * later selection answered first must not be overwritten by them).
 */
export function useSelectionAnswers(
  id: string,
  meta: AppMeta | null,
  asked: { field: string | null; selections: Selections; chart: string | null; search: string },
) {
  const { field, selections, chart, search } = asked;
  const [values, setValues] = useState<ResultOf<'app.analytics.fieldValues'>>([]);
  const [varValues, setVarValues] = useState<Record<string, string>>({});
  const [chartData, setChartData] = useState<ResultOf<'app.analytics.chartData'> | null>(null);
  const [chartPicture, setChartPicture] = useState<string>('');
  useEffect(() => {
    if (!meta?.fields.length) return;
    let current = true;
    const keep =
      <T>(set: (v: T) => void) =>
      (v: T) =>
        current && set(v);
    if (field)
      void invoke('app.analytics.fieldValues', {
        params: { id },
        body: { field, selections, limit: 200, search: search || undefined },
      }).then((a) => keep(setValues)(a.ok ? a.data : []));
    void Promise.all(
      meta.variables.map(async (v) => {
        const a = await invoke('app.analytics.evaluate', {
          params: { id },
          body: { expression: `$(${v.name})`, selections },
        });
        return [v.name, shown(a.data?.value)] as const;
      }),
    ).then((pairs) => keep(setVarValues)(Object.fromEntries(pairs)));
    if (chart) {
      void invoke('app.analytics.chartData', { params: { id }, body: { chartId: chart, selections } }).then((a) =>
        keep(setChartData)(a.ok ? a.data : null),
      );
      // The SVG comes from the engine's chart renderer (ECharts, text escaped); the page's CSP forbids script.
      void invoke('app.analytics.chartPicture', { params: { id }, body: { chartId: chart, selections } }).then((a) =>
        keep(setChartPicture)(a.ok ? a.data.svg : ''),
      );
    }
    return () => {
      current = false;
    };
  }, [id, meta, field, selections, chart, search]);
  return { values, varValues, chartData, chartPicture };
}
