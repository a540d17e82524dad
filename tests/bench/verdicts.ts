// Every figure the bench measures against a goal or a committed baseline, and its verdict.
// Benches print their own tables (the detail); each figure worth holding is also recorded here
// with `figure()`, and the run ends with one table of verdicts and the line
// "N of M goals met; K slipped". `--save-baseline` writes this run's figures into
// `tests/bench/baseline.json` (merged, so a part run alone updates only its own figures), and
// `--add-to-baseline` only the figures it does not hold yet (a new measure, a part not yet run);
// that file changes only on purpose, with the reason in the commit.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
}

/** A figure is said to have slipped when it is this much worse than its baseline. */
export const SLIP = 0.15;

const figures: Figure[] = [];

/** Records a figure for the verdicts; returns its value so a bench can print it as before. */
export function figure(f: Figure): number {
  figures.push(f);
  return f.value;
}

export const BASELINE_FILE = join(__dirname, '..', '..', 'tests', 'bench', 'baseline.json');

interface BaselineFile {
  /** Why the figures are what they are: the run and the machine they came from. */
  about: string;
  figures: Record<string, { value: number; unit: string; measure: string }>;
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

/** The verdict of one figure against its goal and its baseline value (if any). */
export function verdictOf(f: Figure, base: number | undefined): { verdict: Verdict; slip: number | null } {
  const up = higherIsBetter(f);
  // How much worse than the baseline, as a fraction (negative: better).
  const slip = base === undefined || base === 0 ? null : up ? (base - f.value) / base : (f.value - base) / base;
  const slipped = slip !== null && slip > SLIP;
  let goalMet: boolean | null = null;
  if (f.goal) goalMet = 'atMost' in f.goal ? f.value <= f.goal.atMost : f.value >= f.goal.atLeast;
  if (goalMet === false) return { verdict: slipped ? 'missed, slipped' : 'missed', slip };
  if (slipped) return { verdict: 'slipped', slip };
  if (goalMet) return { verdict: 'met', slip };
  return { verdict: base === undefined ? 'new' : 'held', slip };
}

const shown = (v: number, unit: string) =>
  `${unit === '×' ? v.toFixed(2) : v >= 100 ? v.toFixed(0) : v.toFixed(unit === 'ms' ? 2 : 1)}${unit === '×' ? '×' : ` ${unit}`}`;

function goalText(f: Figure): string {
  if (!f.goal) return '—';
  return 'atMost' in f.goal ? `≤ ${shown(f.goal.atMost, f.unit)}` : `≥ ${shown(f.goal.atLeast, f.unit)}`;
}

/** Prints the verdicts of this run's figures, the closing line, and saves the baseline if asked. */
export function closeVerdicts(options: {
  /** 'all': this run's figures replace the baseline's; 'new': only figures it lacks are added. */
  save: 'all' | 'new' | null;
  file?: string;
  about?: string;
}): string {
  const file = options.file ?? BASELINE_FILE;
  const baseline = readBaseline(file);
  let goals = 0;
  let met = 0;
  let slipped = 0;
  const rows = figures.map((f) => {
    const base = baseline.figures[f.id]?.value;
    const { verdict, slip } = verdictOf(f, base);
    if (f.goal) goals++;
    if (verdict === 'met') met++;
    if (verdict.includes('slipped')) slipped++;
    return {
      measure: f.measure,
      now: shown(f.value, f.unit),
      goal: goalText(f),
      baseline: base === undefined ? '—' : shown(base, f.unit),
      'against baseline':
        slip === null ? '—' : `${slip > 0 ? '+' : ''}${Math.round(slip * 100)}% ${slip > 0 ? 'worse' : 'better'}`,
      verdict: f.note && verdict.startsWith('missed') ? `${verdict} (${f.note})` : verdict,
    };
  });
  if (rows.length) {
    console.log(`\nVerdicts (slipped: more than ${SLIP * 100}% worse than tests/bench/baseline.json):`);
    console.table(rows);
  }
  const line = `${met} of ${goals} goals met; ${slipped} slipped`;
  console.log(line);
  if (options.save) {
    const saved = figures.filter((f) => options.save === 'all' || !(f.id in baseline.figures));
    for (const f of saved) baseline.figures[f.id] = { value: f.value, unit: f.unit, measure: f.measure };
    // Where the figures came from, each run's description once.
    if (options.about && saved.length && !baseline.about.includes(options.about))
      baseline.about = `${baseline.about}; ${options.about}`.replace(/^; /, '');
    writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
    console.log(`baseline: ${saved.length} figures saved into ${file}`);
  }
  return line;
}
