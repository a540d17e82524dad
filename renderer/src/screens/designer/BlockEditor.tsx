import { readFile } from '../../components/file-input';
import type { ResultOf } from '../../../../engine/catalogue';
import type { DocBlock } from '../../../../engine/render/document';

import type { Block } from '../../stores/designer/draft.store';
export type AppInfo = ResultOf<'app.analytics.get'>;
type ChartBlockType = Extract<DocBlock, { type: 'chart' }>['chartType'];

const numberOrNone = (s: string) => (s === '' ? undefined : Number(s));
const CHART_TYPES: NonNullable<ChartBlockType>[] = ['bar', 'line', 'pie', 'combo'];

/** The fields of one block, by its type; every change goes straight to the document. */
export function BlockEditor({
  block,
  app,
  change,
  invalid,
}: {
  block: Block;
  app: AppInfo | null;
  change: (b: Block) => void;
  invalid?: Record<string, string>;
}) {
  const id = (k: string) => `b-${block.id}-${k}`;
  // A field the last Save refused is marked and points at the block's message.
  const marked = (k: string) =>
    invalid?.[k] ? { 'aria-invalid': true, 'aria-describedby': `b-${block.id}-problems` } : {};
  switch (block.type) {
    case 'heading':
      return (
        <div className="block-fields">
          <label htmlFor={id('text')}>Heading text</label>
          <input
            id={id('text')}
            value={block.text ?? ''}
            onChange={(e) => change({ ...block, text: e.target.value })}
          />
          <label htmlFor={id('level')}>Level</label>
          <select
            id={id('level')}
            value={block.level ?? 1}
            onChange={(e) => change({ ...block, level: Number(e.target.value) })}
          >
            <option value={1}>Title</option>
            <option value={2}>Section</option>
            <option value={3}>Subsection</option>
          </select>
        </div>
      );
    case 'text':
      return (
        <div className="block-fields">
          <label htmlFor={id('text')}>Text</label>
          <textarea
            id={id('text')}
            value={block.text ?? ''}
            onChange={(e) => change({ ...block, text: e.target.value })}
          />
          <small className="hint">
            Insert values with {'{{vName}}'} for a variable or {'{{=Sum(Sales)}}'} for an expression.
            {app?.variables.length ? ` Variables: ${app.variables.map((v) => v.name).join(', ')}` : ''}
          </small>
        </div>
      );
    case 'kpi':
      return (
        <div className="block-fields">
          <label htmlFor={id('label')}>Label</label>
          <input
            id={id('label')}
            value={block.label ?? ''}
            onChange={(e) => change({ ...block, label: e.target.value })}
          />
          <label htmlFor={id('expression')}>Expression</label>
          <input
            id={id('expression')}
            {...marked('expression')}
            value={block.expression ?? ''}
            onChange={(e) => change({ ...block, expression: e.target.value })}
            placeholder="Sum(Sales)"
          />
          <label htmlFor={id('decimals')}>Decimals</label>
          <input
            id={id('decimals')}
            type="number"
            min={0}
            max={6}
            value={block.format?.decimals ?? ''}
            onChange={(e) => change({ ...block, format: { ...block.format, decimals: numberOrNone(e.target.value) } })}
          />
        </div>
      );
    case 'table':
    case 'chart': {
      const measure = block.measures?.[0] ?? { label: '', expression: '' };
      const useChart = !!block.chartId || !(block.dimensions?.length || block.measures?.length);
      return (
        <div className="block-fields">
          <label htmlFor={id('chartId')}>{block.type === 'table' ? 'Table data' : 'Chart'}</label>
          <select
            id={id('chartId')}
            {...marked('chartId')}
            value={useChart ? (block.chartId ?? '') : '__custom'}
            onChange={(e) =>
              e.target.value === '__custom'
                ? change({
                    ...block,
                    chartId: undefined,
                    dimensions: [app?.fields[0]?.name ?? ''],
                    measures: [{ label: 'Value', expression: 'Count(*)' }],
                  })
                : change({ ...block, chartId: e.target.value || undefined, dimensions: undefined, measures: undefined })
            }
          >
            <option value="">Choose a chart of the app…</option>
            {app?.charts.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value="__custom">Dimensions and measures…</option>
          </select>
          {!useChart && (
            <>
              <label htmlFor={id('dimension')}>Dimension</label>
              <select
                id={id('dimension')}
                {...marked('dimensions')}
                value={block.dimensions?.[0] ?? ''}
                onChange={(e) => change({ ...block, dimensions: e.target.value ? [e.target.value] : [] })}
              >
                {app?.fields.map((f) => (
                  <option key={f.id} value={f.name}>
                    {f.name}
                  </option>
                ))}
              </select>
              <label htmlFor={id('mlabel')}>Measure label</label>
              <input
                id={id('mlabel')}
                value={measure.label}
                onChange={(e) => change({ ...block, measures: [{ ...measure, label: e.target.value }] })}
              />
              <label htmlFor={id('mexpr')}>Measure expression</label>
              <input
                id={id('mexpr')}
                {...marked('measures')}
                value={measure.expression}
                onChange={(e) => change({ ...block, measures: [{ ...measure, expression: e.target.value }] })}
                placeholder="Sum(Sales)"
              />
            </>
          )}
          {block.type === 'chart' && (
            <>
              <label htmlFor={id('chartType')}>Drawn as</label>
              <select
                id={id('chartType')}
                value={block.chartType ?? ''}
                onChange={(e) => change({ ...block, chartType: CHART_TYPES.find((t) => t === e.target.value) })}
              >
                <option value="">As saved</option>
                <option value="bar">Bar</option>
                <option value="line">Line</option>
                <option value="pie">Pie</option>
                <option value="combo">Combo</option>
              </select>
            </>
          )}
          <label htmlFor={id('limit')}>Rows at most</label>
          <input
            id={id('limit')}
            type="number"
            min={1}
            value={block.limit ?? ''}
            onChange={(e) => change({ ...block, limit: numberOrNone(e.target.value) })}
          />
        </div>
      );
    }
    case 'image':
      return (
        <div className="block-fields">
          <label htmlFor={id('file')}>Picture (PNG or JPEG)</label>
          <input
            id={id('file')}
            type="file"
            accept="image/png,image/jpeg"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) change({ ...block, dataUrl: `data:${f.type};base64,${await readFile(f, 'base64')}` });
            }}
          />
          {block.dataUrl && <img src={block.dataUrl} alt="" className="thumb" />}
        </div>
      );
    default:
      return <p className="hint">A new page, slide or sheet starts here.</p>;
  }
}
