/** Reads until `ok` holds (every 25 ms), failing after `ms`: for what arrives on its own, such as mail. */
export async function until<T>(read: () => Promise<T> | T, ok: (x: T) => boolean, ms = 30_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const x = await read();
    if (ok(x)) return x;
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
