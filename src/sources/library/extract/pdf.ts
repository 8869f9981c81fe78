import { extractText, getDocumentProxy } from 'unpdf';
import type { DraftDocument } from './assemble.js';
import { firstLineTitle } from './text.js';
import { ExtractionError } from './types.js';

// pdf.js logs recoverable damage ("Indexing all PDF objects") to the console; errors still throw.
const PDFJS_SILENT = 0;

const readFailure = (error: unknown): string =>
  error instanceof Error && error.name === 'PasswordException'
    ? 'the PDF is password-protected'
    : `the PDF is damaged or not a PDF (${error instanceof Error ? error.message : String(error)})`;

/** One section per page, so a passage can cite the page it came from. */
export const extractPdf = async (fileName: string, bytes: Uint8Array): Promise<DraftDocument> => {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js transfers (detaches) the buffer it is given; a copy leaves the caller's bytes usable.
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: PDFJS_SILENT });
  } catch (error) {
    throw new ExtractionError(fileName, readFailure(error), { cause: error });
  }
  try {
    const { text: pages } = await extractText(pdf, { mergePages: false });
    const { info } = await pdf.getMetadata();
    const metadataTitle: unknown = (info as Record<string, unknown> | undefined)?.['Title'];
    const title = typeof metadataTitle === 'string' && metadataTitle.trim() !== '' ? metadataTitle : firstLineTitle(pages.join('\n'));
    return { title, sections: pages.map((body, index) => ({ heading: null, page: index + 1, body })) };
  } catch (error) {
    throw new ExtractionError(fileName, readFailure(error), { cause: error });
  } finally {
    await pdf.destroy();
  }
};
