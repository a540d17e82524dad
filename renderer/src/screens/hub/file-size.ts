/** A published file's size as the hub shows it: KB under a megabyte, MB above. */
export const fileSize = (n: number | null) =>
  n === null ? '' : n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
