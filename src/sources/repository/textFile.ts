import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { BINARY_SNIFF_BYTES } from './repositoryPolicy.js';

export type TextFileRead =
  | { readonly kind: 'text'; readonly lines: readonly string[] }
  | { readonly kind: 'binary' }
  | { readonly kind: 'too_large' }
  | { readonly kind: 'not_a_file' };

/**
 * Reads a file as UTF-8 lines if it is a regular text file of at most `maxBytes`.
 *
 * O_NOFOLLOW refuses a symlink swapped in after the caller checked the path, and O_NONBLOCK
 * keeps a FIFO from blocking the open; the type is then checked on the open handle.
 */
export const readTextFile = async (absolute: string, maxBytes: number): Promise<TextFileRead> => {
  let handle: FileHandle;
  try {
    handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { kind: 'not_a_file' };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'not_a_file' };
    if (stats.size > maxBytes) return { kind: 'too_large' };
    // Read one byte past the cap, so a file that grew since fstat is still caught.
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return { kind: 'too_large' };
    const bytes = buffer.subarray(0, length);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { kind: 'binary' };
    const text = new TextDecoder('utf-8').decode(bytes);
    const lines = text.split(/\r?\n/);
    // A final newline ends the last line; it does not start another.
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    return { kind: 'text', lines };
  } finally {
    await handle.close();
  }
};
