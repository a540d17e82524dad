// The two summaries every bench part reads its samples by.

/** The sample at the p-th percentile (the nearest rank at or above it; NaN for no samples). */
export const pct = (xs: number[], p: number): number =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN;

/** The middle sample, or the mean of the two middle ones. */
export const median = (values: number[]): number => {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};
