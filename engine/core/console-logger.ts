import type { Logger } from './logger.js';

/** A logger for hosts that write to the terminal or the system log (serve, the desktop shell). */
export const consoleLogger: Logger = {
  info: (msg, f) => console.log(`[info] ${msg}`, f ? JSON.stringify(f) : ''),
  warn: (msg, f) => console.warn(`[warn] ${msg}`, f ? JSON.stringify(f) : ''),
  error: (msg, f) => console.error(`[error] ${msg}`, f ? JSON.stringify(f) : ''),
};
