import { useMemo } from 'react';
import type { RowOf } from '../../../../engine/catalogue';

type Run = RowOf<'app.requests.list'>;
const COLOURS: Record<string, string> = { completed: '#1f8a4c', warning: '#c98a00', failed: '#c0392b', aborted: '#7a8699' };
const W = 720;
const H = 200;
const PAD = { left: 48, right: 12, top: 12, bottom: 28 };

const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

/**
 * Run durations over time, one dot per finished run, coloured by how it ended: a slow day or a
 * string of failures shows at a glance, where a table would need reading.
 */
export function RunsPlot({ runs }: { runs: Run[] }) {
  const done = useMemo(() => runs.filter((r) => r.durationMs !== null && r.executionStart), [runs]);
  if (!done.length) return <p className="empty">Run durations appear here once runs have finished.</p>;
  const times = done.map((r) => Date.parse(r.executionStart!));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times, t0 + 60_000);
  const maxMs = Math.max(...done.map((r) => r.durationMs!), 1000);
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (ms: number) => H - PAD.bottom - (ms / maxMs) * (H - PAD.top - PAD.bottom);
  const counts = Object.keys(COLOURS).map((s) => [s, done.filter((r) => r.status === s).length] as const).filter(([, n]) => n);
  return (
    <figure className="runs-plot">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Durations of the last ${done.length} runs: ${counts.map(([s, n]) => `${n} ${s}`).join(', ')}; the longest took ${seconds(maxMs)}`}>
        <line x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} stroke="#c9d3df" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} stroke="#c9d3df" />
        <text x={PAD.left - 6} y={PAD.top + 10} textAnchor="end" fontSize="11" fill="#5b6b7f">{seconds(maxMs)}</text>
        <text x={PAD.left - 6} y={H - PAD.bottom} textAnchor="end" fontSize="11" fill="#5b6b7f">0</text>
        <text x={PAD.left} y={H - 8} fontSize="11" fill="#5b6b7f">{new Date(t0).toLocaleString()}</text>
        <text x={W - PAD.right} y={H - 8} textAnchor="end" fontSize="11" fill="#5b6b7f">{new Date(t1).toLocaleString()}</text>
        {done.map((r, i) => (
          <circle key={r.id} cx={x(times[i])} cy={y(r.durationMs!)} r={4} fill={COLOURS[r.status] ?? '#7a8699'}>
            <title>{`${r.title}: ${r.status}, ${seconds(r.durationMs!)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="legend">
        {counts.map(([s, n]) => (
          <span key={s}><i style={{ background: COLOURS[s] }} aria-hidden="true" /> {s} ({n})</span>
        ))}
      </figcaption>
    </figure>
  );
}
