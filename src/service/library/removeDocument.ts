import type { LibraryDocumentRecord } from '../../store/port.js';
import type { LibraryDeps } from './deps.js';

/**
 * `helix library remove`: a document named by its id, its display path or its origin, with its
 * passages; undefined when nothing has that name.
 */
export const removeDocument = async (deps: LibraryDeps, name: string): Promise<LibraryDocumentRecord | undefined> => {
  const all = await deps.store.read.library.list();
  const target = all.find((d) => d.docId === name || d.displayPath === name || d.origin === name);
  if (target !== undefined) await deps.store.transaction((uow) => uow.library.remove(target.docId));
  return target;
};
