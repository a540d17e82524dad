import { open } from 'node:fs/promises';

/** `length` bytes of a file from `start` (fewer at its end): one chunk of an upload, read when it is sent. */
export async function readRange(path: string, start: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const f = await open(path, 'r');
  try {
    const buf = new Uint8Array(length);
    const { bytesRead } = await f.read(buf, 0, length, start);
    return buf.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}
