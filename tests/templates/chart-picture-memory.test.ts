// Chart pictures drawn one after another reuse the pages the one before gave back
// (engine/core/native-allocators.ts): resvg's allocator, mimalloc, reads how long it keeps freed
// pages from the process's environment as it loads, and the engine sets it there first. What it
// keeps is timed (a quarter second by default), so these tests hold it by what cannot depend on a
// busy machine: the engine's default reaches the environment, a value set in the environment as
// the process runs (as the engine sets its own) reaches the allocator, and a user's value is kept.
// Page faults are counted, not timed; the bench measures what the default saves.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { covers } from '../support/covers.js';

const ROOT = join(__dirname, '..', '..');

/**
 * Draws 30 pictures in a fresh process whose environment has no delay of its own; `setFirst` is
 * written to `process.env` as the process runs, before resvg loads. Answers the delay resvg saw and
 * the faults a picture over the last 20.
 */
function drawInAFreshProcess(setFirst?: string): { setting: string | undefined; faultsPerPicture: number } {
  const child = `
    if (${JSON.stringify(setFirst ?? null)} !== null) process.env.MIMALLOC_PURGE_DELAY = ${JSON.stringify(setFirst ?? '')};
    const png = await import(${JSON.stringify(join(ROOT, 'engine', 'render', 'chart-png.ts'))});
    const svgs = await import(${JSON.stringify(join(ROOT, 'engine', 'render', 'chart-svg.ts'))});
    const { svgToPngAsync } = png.default ?? png;
    const { chartSvg, CHART_WIDTH } = svgs.default ?? svgs;
    const chart = (i) => chartSvg({ type: 'chart', title: 'Sales', chartType: 'bar',
      categories: Array.from({ length: 10 }, (_, k) => 'Category ' + k),
      series: [{ name: 'Sales', values: Array.from({ length: 10 }, (_, k) => (i + 1) * (k + 1)) }] });
    let from = 0;
    for (let i = 0; i < 30; i++) {
      if (i === 10) from = process.resourceUsage().minorPageFault;
      await svgToPngAsync(chart(i), CHART_WIDTH * 2);
    }
    const faults = (process.resourceUsage().minorPageFault - from) / 20;
    console.log(JSON.stringify({ setting: process.env.MIMALLOC_PURGE_DELAY, faultsPerPicture: faults }));
  `;
  const env = { ...process.env };
  delete env.MIMALLOC_PURGE_DELAY;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as { setting: string | undefined; faultsPerPicture: number };
}

describe(covers('chart pictures', 'v2.reports.generate'), () => {
  it('sets how long freed pages are kept before resvg loads, where the user set nothing', () => {
    expect(drawInAFreshProcess().setting).toBe('250');
  });

  it("reaches resvg's allocator through the environment as the process runs, and keeps a user's value", () => {
    // Kept for good: a run of pictures draws in the pages the one before gave back. A picture's
    // pixels are about 850 pages; drawn in reused pages, a picture faults 130–230 here.
    const kept = drawInAFreshProcess('-1');
    expect(kept.setting).toBe('-1');
    expect(kept.faultsPerPicture).toBeLessThan(600);
    // Given back at once: each picture faults its pixels in again (about 3,000 here; 1,900 at
    // mimalloc's own 10 ms, had the value not reached it).
    const givenBack = drawInAFreshProcess('0');
    expect(givenBack.setting).toBe('0');
    expect(givenBack.faultsPerPicture).toBeGreaterThan(1000);
  });
});
