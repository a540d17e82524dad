// The bench's verdicts: a figure measured in several runs is judged by its median, and a baseline's
// own spread between its saved runs widens what counts as a slip for that figure alone.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeVerdicts, figure, spreadOf, verdictOf } from './verdicts.js';

let dir = '';
let file = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bs-verdicts-'));
  file = join(dir, 'baseline.json');
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'table').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const byDay = (value: number) =>
  figure({ id: 'import.by-day', measure: 'Sum(Units) by day', value, unit: '×', goal: { atMost: 1.5 } });
const baseline = (entry: object) =>
  writeFile(
    file,
    JSON.stringify({ about: 'test', figures: { 'import.by-day': { unit: '×', measure: 'x', ...entry } } }),
  );

describe('bench verdicts', () => {
  it('judges a figure measured three times by its median, not its worst run', async () => {
    for (const v of [1.3, 2.1, 1.2]) byDay(v);
    expect(closeVerdicts({ save: null, file })).toBe('1 of 1 goals met; 0 slipped');
  });

  it('calls 20% worse a slip against a one-run baseline, but not against one whose runs spread 40%', async () => {
    await baseline({ value: 1.0 });
    byDay(1.2);
    expect(closeVerdicts({ save: null, file })).toBe('1 of 1 goals met; 1 slipped');
    await baseline({ value: 1.0, runs: [0.9, 1.0, 1.4] });
    byDay(1.2);
    expect(closeVerdicts({ save: null, file })).toBe('1 of 1 goals met; 0 slipped');
    byDay(1.45);
    expect(closeVerdicts({ save: null, file })).toBe('1 of 1 goals met; 1 slipped');
  });

  it('saves the median and the runs, and a higher-is-better figure spreads downwards', async () => {
    for (const v of [1.4, 1.1, 1.2]) byDay(v);
    closeVerdicts({ save: 'all', file, about: 'three runs' });
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.figures['import.by-day']).toMatchObject({ value: 1.2, runs: [1.4, 1.1, 1.2] });
    expect(spreadOf([90, 100, 104], true)).toBeCloseTo(0.1);
    expect(spreadOf([90, 100, 104], false)).toBeCloseTo(0.04);
    const mail = { id: 'mail', measure: 'mail', value: 80, unit: '%', goal: { atLeast: 80 } };
    expect(verdictOf(mail, 100, [90, 100, 130]).verdict).toBe('slipped');
    expect(verdictOf(mail, 100, [70, 100, 101]).verdict).toBe('met');
  });

  it('judges a figure in ms with a floor by its ratio to the floor: a slower machine is not a slip, a slower product is', async () => {
    const call = (value: number, floor: number) =>
      figure({ id: 'lists.signed-in-call', measure: 'a call', value, unit: 'ms', goal: { atMost: 2 }, floor });
    // A baseline saved before floors: `--add-to-baseline` adds the floor and keeps the saved value.
    await writeFile(
      file,
      JSON.stringify({
        about: 'old',
        figures: { 'lists.signed-in-call': { value: 0.2, unit: 'ms', measure: 'a call' } },
      }),
    );
    for (const floor of [0.5, 0.4, 0.45]) call(0.2, floor);
    expect(closeVerdicts({ save: 'new', file, about: 'floors' })).toBe('1 of 1 goals met; 0 slipped');
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.figures['lists.signed-in-call']).toMatchObject({ value: 0.2, toFloorRuns: [0.4, 0.5, 0.2 / 0.45] });
    expect(saved.figures['lists.signed-in-call'].toFloor).toBeCloseTo(0.2 / 0.45);
    // The machine 30% slower: the call and its floor both slower, no slip, though the ms are 30% up.
    call(0.26, 0.45 * 1.3);
    expect(closeVerdicts({ save: null, file })).toBe('1 of 1 goals met; 0 slipped');
    // The product 30% slower on the same machine: a slip.
    call(0.26, 0.45);
    expect(closeVerdicts({ save: null, file })).toBe('1 of 1 goals met; 1 slipped');
    // The goal is still the figure's own: 2.5 ms misses 2 ms however slow its floor was.
    call(2.5, 10);
    expect(closeVerdicts({ save: null, file })).toBe('0 of 1 goals met; 0 slipped');
  });
});
