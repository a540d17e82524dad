/**
 * Resolves on the event loop's next turn: long work on the main thread awaits it between slices,
 * so answers, timers and the database's replies are not held up behind it.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
