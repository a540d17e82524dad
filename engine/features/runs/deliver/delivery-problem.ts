import { webdavProblem } from '../../storage/webdav.js';

/**
 * What went wrong with a delivery, in the words a person acts on, and whether trying again can help.
 * A full or read-only disk, a server not answering or busy passes (space freed, a share remounted,
 * a restart): tried again. A refused sign-in, a folder not allowed or a path that does not exist
 * stays as it is until someone changes something: said at once.
 */
export interface DeliveryProblem {
  words: string;
  transient: boolean;
}

const short = (e: unknown) => ((e as Error)?.message ?? String(e)).replace(/[\r\n]+/g, ' ').slice(0, 300);

/** A file system's or a socket's error code, where the error has one. */
const codeOf = (e: unknown) => String((e as { code?: unknown } | null)?.code ?? '');

/** An HTTP status an error carries (WebDAV, cloud drives), or FTP's reply code. */
function statusOf(e: unknown): number | null {
  const x = e as { status?: unknown; response?: { status?: unknown }; code?: unknown } | null;
  const status = x?.status ?? x?.response?.status ?? (typeof x?.code === 'number' ? x.code : null);
  return typeof status === 'number' ? status : null;
}

const BY_CODE: Record<string, DeliveryProblem> = {
  ENOSPC: { words: 'the disk is full', transient: true },
  EDQUOT: { words: 'the disk quota is used up', transient: true },
  EROFS: { words: 'the disk is read-only', transient: true },
  EIO: { words: 'the disk failed to write (an I/O error)', transient: true },
  ESTALE: { words: 'the network share went away', transient: true },
  EBUSY: { words: 'the folder is busy', transient: true },
  EAGAIN: { words: 'the disk is busy', transient: true },
  ECONNREFUSED: { words: 'the server refused the connection (is it running?)', transient: true },
  ECONNRESET: { words: 'the server closed the connection', transient: true },
  ETIMEDOUT: { words: 'the server did not answer in time', transient: true },
  EHOSTUNREACH: { words: 'the server cannot be reached', transient: true },
  ENETUNREACH: { words: 'the network cannot be reached', transient: true },
  EAI_AGAIN: { words: "the server's name could not be looked up just now", transient: true },
  EACCES: { words: 'permission denied: the account Broadsheet runs as may not write there', transient: false },
  EPERM: { words: 'permission denied: the account Broadsheet runs as may not write there', transient: false },
  ENOENT: { words: 'the folder does not exist', transient: false },
  ENOTDIR: { words: 'a part of the path is a file, not a folder', transient: false },
  ENOTFOUND: { words: "the server's name is not known", transient: false },
};

/** The problem of one destination (`type` as a storage service's), in words, and whether to try again. */
export function deliveryProblem(type: string, e: unknown): DeliveryProblem {
  const code = codeOf(e);
  const known = BY_CODE[code];
  if (known) return { words: `${known.words} (${code})`, transient: known.transient };
  if (/timeout|timed out/i.test(short(e))) return { words: 'the server did not answer in time', transient: true };
  const status = statusOf(e);
  const words = type === 'WebDAV' ? webdavProblem(e) : short(e);
  if (status !== null) {
    // HTTP: a server error or "slow down" passes; a refusal does not. FTP: 4xx replies are transient, 5xx permanent.
    const http = status >= 100 && status < 600 && type !== 'FTP';
    const transient = http ? status >= 500 || status === 429 || status === 408 : status >= 400 && status < 500;
    return { words, transient };
  }
  return { words, transient: false };
}
