import { invoke } from '../../../bridge';
import { IfMayChangeApp } from './app-change';
import type { ResultOf } from '../../../../../engine/catalogue';
import type { ChartType } from '../../../../../engine/analytics/model';
import { Form } from '../../../components/Form';
import { text } from '../../../components/options';
import { CHART_KINDS } from '../../../../../engine/wire';
import type { AppMeta } from './use-analytics-app';
import { RemoveItemButton } from './RemoveItemButton';

const CHART_TYPES: readonly ChartType[] = CHART_KINDS;

/** The app's charts: the chosen one drawn and its first rows shown under the selections; add, delete. */
export function ChartsPanel(props: {
  id: string;
  meta: AppMeta;
  chart: string | null;
  chosen: (chartId: string | null) => void;
  chartData: ResultOf<'app.analytics.chartData'> | null;
  chartPicture: string;
  changed: () => Promise<void>;
}) {
  const { id, meta, chart, chartData, chartPicture } = props;
  const setChart = props.chosen;
  const load = props.changed;
  return (
    <>
      <h2 className="spaced">Charts</h2>
      <ul className="cards">
        {meta.charts.map((c) => (
          <li key={c.id} className={chart === c.id ? 'selected' : ''}>
            <button type="button" className="link" onClick={() => setChart(c.id)}>
              {c.name}
            </button>{' '}
            <span className="badge">{c.type}</span>
            <span className="card-actions">
              <RemoveItemButton
                appId={id}
                kind="Chart"
                item={c}
                removed={() => {
                  if (chart === c.id) setChart(null);
                  void load();
                }}
              />
            </span>
          </li>
        ))}
      </ul>
      {chartPicture && chart && (
        <figure className="chart-picture" aria-label="Chart" dangerouslySetInnerHTML={{ __html: chartPicture }} />
      )}
      {chartData && chart && (
        <table aria-label="Chart data">
          <thead>
            <tr>
              {[...chartData.dimensions, ...chartData.measures].map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {chartData.rows.slice(0, 20).map((r, i) => (
              <tr key={i}>
                {r.map((v, k) => (
                  <td key={k} className={typeof v === 'number' ? 'num' : ''}>
                    {typeof v === 'number'
                      ? v.toLocaleString(undefined, { maximumFractionDigits: 2 })
                      : String(v ?? '')}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <IfMayChangeApp>
        <Form
          fields={[
            { name: 'name', label: 'Chart name', kind: 'text', required: true },
            { name: 'type', label: 'Type', kind: 'select', required: true, choices: CHART_TYPES },
            {
              name: 'dimension',
              label: 'Dimension',
              kind: 'select',
              required: true,
              options: async () => meta.fields.map((f) => ({ id: f.name, name: f.name })),
            },
            {
              name: 'measure',
              label: 'Measure',
              kind: 'text',
              required: true,
              hint: 'An expression such as Sum(Sales)',
            },
          ]}
          initial={{ type: 'bar' }}
          submitLabel="Add chart"
          clearOnSuccess
          onSubmit={async (v) => {
            const type = CHART_TYPES.find((t) => t === v.type) ?? 'bar';
            const a = await invoke('app.analytics.saveChart', {
              params: { id },
              body: {
                name: text(v.name),
                type,
                dimensions: v.dimension ? [text(v.dimension)] : [],
                measures: [{ label: text(v.measure), expression: text(v.measure) }],
              },
            });
            if (!a.ok)
              return {
                error: a.error,
                errorDetails: (a.errorDetails ?? []).map((d) => ({
                  ...d,
                  field: d.field
                    .replace(/^body\.measures\.0\.expression$/, 'body.measure')
                    .replace(/^body\.dimensions$/, 'body.dimension'),
                })),
              };
            await load();
            setChart(a.data.id);
            return null;
          }}
        />
      </IfMayChangeApp>
    </>
  );
}
