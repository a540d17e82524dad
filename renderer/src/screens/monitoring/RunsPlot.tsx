import { useMemo, useState } from 'react';
import type { RowOf } from '../../../../engine/catalogue';
import { inZone } from '../../components/times';
import { useMeasuredWidth } from '../../hooks/useMeasuredWidth';

type Run = RowOf<'app.requests.list'>;
const COLOURS: Record<string, string> = {
  completed: '#1f8a4c',
  warning: '#c98a00',
  failed: '#c0392b',
  aborted: '#7a8699',
};
const PROBLEM = '#c0392b';
/** Drawn at its card's width (at least this), at a height of its own. */
const NARROWEST = 360;
const H = 200;
const PAD = { left: 48, right: 12, top: 12, bottom: 28 };
const INSET = 8;
const MEASURES = { duration: 'Duration', files: 'Files' } as const;
type Measure = keyof typeof MEASURES;

const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

/**
 * Finished runs over time, one dot each, by duration or by files made, coloured by how the run
 * ended; a run whose mail or delivery failed is ringed in red. A slow day, a run that made nothing
 * or a string of failures shows at a glance, where a table would need reading.
 */
export function RunsPlot({ runs, narrowed = false }: { runs: Run[]; narrowed?: boolean }) {
  const [measure, setMeasure] = useState<Measure>('duration');
  const done = useMemo(() => runs.filter((r) => r.durationMs !== null && r.executionStart), [runs]);
  const [measured, laidOut] = useMeasuredWidth<HTMLElement>(720);
  const W = Math.max(NARROWEST, laidOut);
  if (!done.length)
    return (
      <p className="empty">
        {narrowed ? 'No finished run matches the filter.' : 'Runs appear here once they have finished.'}
      </p>
    );
  const value = (r: Run) => (measure === 'duration' ? r.durationMs! : r.files.length);
  const label = (v: number) => (measure === 'duration' ? seconds(v) : `${v} file${v === 1 ? '' : 's'}`);
  const times = done.map((r) => Date.parse(r.executionStart!));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times, t0 + 60_000);
  const max = Math.max(...done.map(value), measure === 'duration' ? 1000 : 1);
  // Dots kept a little inside the axes: the first run and the longest are not drawn over them.
  const x = (t: number) => PAD.left + INSET + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right - 2 * INSET);
  const y = (v: number) => H - PAD.bottom - (v / max) * (H - PAD.top - PAD.bottom - INSET);
  const counts = Object.keys(COLOURS)
    .map((s) => [s, done.filter((r) => r.status === s).length] as const)
    .filter(([, n]) => n);
  const problems = done.filter((r) => r.deliveryProblem).length;
  return (
    <figure className="runs-plot" ref={measured}>
      <div className="segmented" role="radiogroup" aria-label="Plot">
        {(Object.keys(MEASURES) as Measure[]).map((m) => (
          <label key={m}>
            <input type="radio" name="runs-measure" checked={measure === m} onChange={() => setMeasure(m)} />{' '}
            {MEASURES[m]}
          </label>
        ))}
      </div>
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${MEASURES[measure]} of the last ${done.length} runs: ${counts.map(([s, n]) => `${n} ${s}`).join(', ')}${problems ? `, ${problems} with a delivery problem` : ''}; the highest ${label(max)}`}
      >
        <line x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} stroke="#c9d3df" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} stroke="#c9d3df" />
        <text x={PAD.left - 6} y={PAD.top + 10} textAnchor="end" fontSize="12" fill="#5b6b7f">
          {label(max)}
        </text>
        <text x={PAD.left - 6} y={H - PAD.bottom} textAnchor="end" fontSize="12" fill="#5b6b7f">
          0
        </text>
        <text x={PAD.left} y={H - 8} fontSize="12" fill="#5b6b7f">
          {inZone(new Date(t0).toISOString())}
        </text>
        <text x={W - PAD.right} y={H - 8} textAnchor="end" fontSize="12" fill="#5b6b7f">
          {inZone(new Date(t1).toISOString())}
        </text>
        {done.map((r, i) => (
          <circle
            key={r.id}
            className={r.deliveryProblem ? 'problem' : undefined}
            cx={x(times[i])}
            cy={y(value(r))}
            r={r.deliveryProblem ? 6 : 4}
            fill={COLOURS[r.status] ?? '#7a8699'}
            stroke={r.deliveryProblem ? PROBLEM : 'none'}
            strokeWidth={2}
            fillOpacity={r.deliveryProblem ? 0.5 : 1}
          >
            <title>{`${r.title}: ${r.status}, ${seconds(r.durationMs!)}, ${r.files.length} file${r.files.length === 1 ? '' : 's'}${r.deliveryProblem ? `; ${r.deliveryProblem}` : ''}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="legend">
        {counts.map(([s, n]) => (
          <span key={s}>
            <i style={{ background: COLOURS[s] }} aria-hidden="true" /> {s} ({n})
          </span>
        ))}
        {problems > 0 && (
          <span>
            <i className="ring" style={{ borderColor: PROBLEM }} aria-hidden="true" /> delivery problem ({problems})
          </span>
        )}
      </figcaption>
    </figure>
  );
}
