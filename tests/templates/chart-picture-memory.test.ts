// Chart pictures drawn one after another reuse the pages the one before gave back
// (engine/core/native-allocators.ts): resvg's allocator keeps freed pages a quarter second, so a
// book of pictures does not fault its 3.5 MB of pixels in afresh for each. Page faults are counted,
// not timed: how many there are depends on the allocator, not on how busy the machine is.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { covers } from '../support/covers.js';

const ROOT = join(__dirname, '..', '..');

/** Draws 30 pictures in a fresh process; answers the variable resvg saw and faults a picture over the last 20. */
function drawInAFreshProcess(purgeDelay?: string): { setting: string | undefined; faultsPerPicture: number } {
  const child = `
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
  if (purgeDelay !== undefined) env.MIMALLOC_PURGE_DELAY = purgeDelay;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as { setting: string | undefined; faultsPerPicture: number };
}

describe(covers('chart pictures', 'v2.reports.generate'), () => {
  it('draws a run of pictures in pages the one before gave back, and keeps a delay the user set', () => {
    const kept = drawInAFreshProcess();
    expect(kept.setting).toBe('250');
    // A picture's pixels are about 850 pages: drawn in reused pages, a picture faults 130–230 here.
    expect(kept.faultsPerPicture).toBeLessThan(600);
    // Given back at once (the user's own setting, kept), each picture faults its pixels in again:
    // about 3,000 here, and 1,900 at mimalloc's own 10 ms.
    const givenBack = drawInAFreshProcess('0');
    expect(givenBack.setting).toBe('0');
    expect(givenBack.faultsPerPicture).toBeGreaterThan(1000);
  });
});
