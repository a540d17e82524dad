// Every figure the bench measures against a goal or a committed baseline, and its verdict.
// Benches print their own tables (the detail); each figure worth holding is also recorded here
// with `figure()`, and the run ends with one table of verdicts and the line
// "N of M goals met; K slipped". `--save-baseline` writes this run's figures into
// `tests/bench/baseline.json` (merged, so a part run alone updates only its own figures), and
// `--add-to-baseline` only the figures it does not hold yet (a new measure, a part not yet run);
// that file changes only on purpose, with the reason in the commit.
//
// Figures on a shared 2-core machine swing by 20–50% between two runs of the same tree, more than
// any one slip line. So `--runs N` measures everything N times and judges each figure by its median,
// and a baseline saved that way keeps its runs: a figure has slipped only when its median is worse
// than the baseline's by more than 15% and by more than the baseline's own runs spread (how far its
// worst run was from its median). One figure's noise is then its own, not every figure's.
//
// A goal in milliseconds is a promise to a person and stays absolute, but the milliseconds move with
// the machine: the same commit read a signed-in call 0.23 ms on one session's machine and 0.27 on the
// next, a Word fill 346 ms and 390. Such a figure carries `floor`, what the practical limit took in
// the same run (the bare route, DuckDB alone, a peer's fill), and its slip is judged on its ratio to
// that floor, as the ratio figures' are: a slower machine slows both.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './stats.js';

/** Lower is better unless the goal is `atLeast` or `better` says otherwise. */
export interface Figure {
  /** Stable key in baseline.json: part.measure, e.g. `start.first`. */
  id: string;
  /** What was measured, as a person reads it. */
  measure: string;
  value: number;
  /** '×' (a ratio to a floor), 'ms', 'MiB', '%'. */
  unit: string;
  goal?: { atMost: number } | { atLeast: number };
  better?: 'lower' | 'higher';
  /** Where a goal belongs to an open piece of work, e.g. "issue 59". */
  note?: string;
  /**
   * For a figure in absolute units: what its floor took in the same run, in the same unit. Its goal
   * is still judged on `value`; its slip on `value / floor` against the baseline's.
   */
  floor?: number;
}

/** A figure is said to have slipped when it is this much worse than its baseline. */
export const SLIP = 0.15;

const figures: Figure[] = [];

/** Records a figure for the verdicts; returns its value so a bench can print it as before. */
export function figure(f: Figure): number {
  figures.push(f);
  return f.value;
}

/** This process's figures so far, handed over and forgotten (a part run in a process of its own). */
export function takeFigures(): Figure[] {
  return figures.splice(0);
}

export const BASELINE_FILE = join(__dirname, '..', '..', 'tests', 'bench', 'baseline.json');

interface BaselineEntry {
  /** The median of `runs` (or the one run's figure). */
  value: number;
  unit: string;
  measure: string;
  /** Each run's figure when the baseline was saved with `--runs N`. */
  runs?: number[];
  /** For a figure with a floor: the median of its ratios to the floor, and each run's ratio. */
  toFloor?: number;
  toFloorRuns?: number[];
}

interface BaselineFile {
  /** Why the figures are what they are: the run and the machine they came from. */
  about: string;
  figures: Record<string, BaselineEntry>;
}

function readBaseline(file: string): BaselineFile {
  if (!existsSync(file)) return { about: '', figures: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as BaselineFile;
}

function higherIsBetter(f: Figure): boolean {
  if (f.goal && 'atLeast' in f.goal) return true;
  return f.better === 'higher';
}

export type Verdict = 'met' | 'missed' | 'held' | 'slipped' | 'missed, slipped' | 'new';

export { median };

/** How far the worst of several runs was from their median, as a fraction of it (0 for one run). */
export function spreadOf(runs: readonly number[], higherBetter: boolean): number {
  if (runs.length < 2) return 0;
  const m = median([...runs]);
  if (m === 0) return 0;
  return higherBetter ? (m - Math.min(...runs)) / m : (Math.max(...runs) - m) / m;
}

/**
 * The verdict of one figure (its value the median of this run's measurements) against its goal and
 * its baseline (if any): slipped when worse than the baseline by more than SLIP and more than the
 * baseline's own spread between its runs. `judged` is what is set against the baseline when that is
 * not the figure itself (its ratio to its floor); the goal is always the figure's.
 */
export function verdictOf(
  f: Figure,
  base: number | undefined,
  baseRuns: readonly number[] = [],
  judged = f.value,
): { verdict: Verdict; slip: number | null; tolerance: number } {
  const up = higherIsBetter(f);
  // How much worse than the baseline, as a fraction (negative: better).
  const slip = base === undefined || base === 0 ? null : up ? (base - judged) / base : (judged - base) / base;
  const tolerance = Math.max(SLIP, spreadOf(baseRuns, up));
  const slipped = slip !== null && slip > tolerance;
  let goalMet: boolean | null = null;
  if (f.goal) goalMet = 'atMost' in f.goal ? f.value <= f.goal.atMost : f.value >= f.goal.atLeast;
  if (goalMet === false) return { verdict: slipped ? 'missed, slipped' : 'missed', slip, tolerance };
  if (slipped) return { verdict: 'slipped', slip, tolerance };
  if (goalMet) return { verdict: 'met', slip, tolerance };
  return { verdict: base === undefined ? 'new' : 'held', slip, tolerance };
}

const shown = (v: number, unit: string) =>
  `${unit === '×' ? v.toFixed(2) : v >= 100 ? v.toFixed(0) : v.toFixed(unit === 'ms' ? 2 : 1)}${unit === '×' ? '×' : ` ${unit}`}`;

function goalText(f: Figure): string {
  if (!f.goal) return '—';
  return 'atMost' in f.goal ? `≤ ${shown(f.goal.atMost, f.unit)}` : `≥ ${shown(f.goal.atLeast, f.unit)}`;
}

interface Gathered {
  f: Figure;
  runs: number[];
  /** Each run's ratio to its floor, for a figure with one. */
  toFloorRuns: number[];
}

/** This run's figures, one per id: a figure measured in several runs is their median, its runs kept. */
function gathered(): Gathered[] {
  const byId = new Map<string, Gathered>();
  for (const f of figures) {
    const seen = byId.get(f.id) ?? byId.set(f.id, { f, runs: [], toFloorRuns: [] }).get(f.id)!;
    seen.runs.push(f.value);
    if (f.floor) seen.toFloorRuns.push(f.value / f.floor);
  }
  return [...byId.values()].map((g) => ({ ...g, f: { ...g.f, value: median(g.runs) } }));
}

/** What a figure's slip is judged on: its ratio to its floor where both sides have one, else its value. */
function judgedOn(g: Gathered, entry: BaselineEntry | undefined) {
  if (entry?.toFloor !== undefined && g.toFloorRuns.length)
    return { value: median(g.toFloorRuns), base: entry.toFloor, baseRuns: entry.toFloorRuns, toFloor: true };
  return { value: g.f.value, base: entry?.value, baseRuns: entry?.runs, toFloor: false };
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** Prints the verdicts of this run's figures, the closing line, and saves the baseline if asked. */
export function closeVerdicts(options: {
  /** 'all': this run's figures replace the baseline's; 'new': only figures it lacks are added. */
  save: 'all' | 'new' | null;
  file?: string;
  about?: string;
}): string {
  const file = options.file ?? BASELINE_FILE;
  const baseline = readBaseline(file);
  const now = gathered();
  // Judged once: the next close starts afresh.
  figures.length = 0;
  const repeated = now.some((g) => g.runs.length > 1);
  let goals = 0;
  let met = 0;
  let slipped = 0;
  const rows = now.map((g) => {
    const { f, runs } = g;
    const entry = baseline.figures[f.id];
    const judged = judgedOn(g, entry);
    const { verdict, slip, tolerance } = verdictOf(f, judged.base, judged.baseRuns, judged.value);
    if (f.goal) goals++;
    // A goal still met counts as met though it slipped (the slip is counted beside it).
    if (f.goal && !verdict.startsWith('missed')) met++;
    if (verdict.includes('slipped')) slipped++;
    const range = runs.length > 1 ? ` (${shown(Math.min(...runs), f.unit)} – ${shown(Math.max(...runs), f.unit)})` : '';
    return {
      measure: f.measure,
      [repeated ? 'now (median, range)' : 'now']: shown(f.value, f.unit) + range,
      goal: goalText(f),
      baseline: entry === undefined ? '—' : shown(entry.value, f.unit),
      'against baseline':
        slip === null
          ? '—'
          : `${slip > 0 ? '+' : ''}${Math.round(slip * 100)}% ${slip > 0 ? 'worse' : 'better'}` +
            (judged.toFloor ? ` to its floor (${judged.value.toFixed(2)}× against ${judged.base!.toFixed(2)}×)` : '') +
            (tolerance > SLIP ? ` (its runs spread ${percent(tolerance)})` : ''),
      verdict: f.note && verdict.startsWith('missed') ? `${verdict} (${f.note})` : verdict,
    };
  });
  if (rows.length) {
    console.log(
      `\nVerdicts (slipped: more than ${percent(SLIP)} worse than tests/bench/baseline.json, and more than the spread of its saved runs):`,
    );
    console.table(rows);
  }
  const line = `${met} of ${goals} goals met; ${slipped} slipped`;
  console.log(line);
  if (options.save) {
    const fromFloor = (g: Gathered) =>
      g.toFloorRuns.length
        ? { toFloor: median(g.toFloorRuns), ...(g.toFloorRuns.length > 1 ? { toFloorRuns: g.toFloorRuns } : {}) }
        : {};
    const saved = now.filter(({ f }) => options.save === 'all' || !(f.id in baseline.figures));
    for (const g of saved)
      baseline.figures[g.f.id] = {
        value: g.f.value,
        unit: g.f.unit,
        measure: g.f.measure,
        ...(g.runs.length > 1 ? { runs: g.runs } : {}),
        ...fromFloor(g),
      };
    // `--add-to-baseline` also adds a floor a held figure did not have yet; its value stays as saved.
    const floorsAdded =
      options.save === 'new'
        ? now.filter(
            (g) => !saved.includes(g) && g.toFloorRuns.length && baseline.figures[g.f.id].toFloor === undefined,
          )
        : [];
    for (const g of floorsAdded) Object.assign(baseline.figures[g.f.id], fromFloor(g));
    // Where the figures came from: this run alone when it wrote them all, else each run's description once.
    const all = Object.keys(baseline.figures).every((id) => saved.some(({ f }) => f.id === id));
    if (options.about && all) baseline.about = options.about;
    else if (options.about && (saved.length || floorsAdded.length) && !baseline.about.includes(options.about))
      baseline.about = `${baseline.about}; ${options.about}`.replace(/^; /, '');
    writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
    console.log(
      `baseline: ${saved.length} figures saved into ${file}` +
        (floorsAdded.length ? `; floors added to ${floorsAdded.map((g) => g.f.id).join(', ')}` : ''),
    );
  }
  return line;
}
