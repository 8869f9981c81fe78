import type { LibraryDocumentRecord } from '../../store/port.js';
import type { LibraryDeps } from './deps.js';

/** `helix library list`: every indexed document. */
export const listDocuments = (deps: LibraryDeps): Promise<LibraryDocumentRecord[]> => deps.store.read.library.list();
