// The resident memory of another process, read from outside as a task manager would: Linux's
// /proc/<pid>/status (VmRSS), elsewhere `ps -o rss=`. A bench samples a server in its own process
// with it, so the figure is the server's alone, not the bench's.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Resident set of `pid` in bytes. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // Not Linux: ps answers the same in KiB.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

/** Samples `pid`'s resident set every `everyMs` until stopped; answers the peak seen. */
export function watchRss(pid: number, everyMs = 50) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // The process ended between two samples: the peak stands.
    }
  }, everyMs);
  return {
    stop(): number {
      clearInterval(timer);
      return peak;
    },
  };
}

/** The resident set of `pid` at rest: sampled for a second, its peak. */
export async function idleRssOf(pid: number): Promise<number> {
  const idle = watchRss(pid, 100);
  await new Promise((r) => setTimeout(r, 1000));
  return idle.stop();
}
