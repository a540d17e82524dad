/**
 * Runs `work` over the items, at most `limit` at a time. For file-system work on many files: each
 * call waits on the disk, and libuv's threads serve several at once. After a failure no new item
 * starts; it rejects with the first failure once the running ones have finished.
 */
export async function eachAtOnce<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (!failure && next < items.length) {
      try {
        await work(items[next++]);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw (failure as { error: unknown }).error;
}
