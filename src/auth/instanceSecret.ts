import { randomBytes } from 'node:crypto';
import type { Store } from '../store/port.js';

/**
 * The per-installation key of every keyed hash (ownership refs, tenant and subject hashes). Created
 * once, by whichever process touches a fresh database first, and never rotated: rotating it would
 * orphan every run and binding.
 */
export const loadInstanceSecret = (store: Store): Promise<string> =>
  store.read.meta.setIfAbsent('instance_secret', randomBytes(32).toString('hex'));
