import { getDocumentProxy } from 'unpdf';
import { normalizeWhitespace, type DraftDocument } from './assemble.js';
import { DocumentLimitError, type DocumentLimits } from './limits.js';
import { measurePdfExpansion } from './pdfExpansion.js';
import { pdfSections, type PdfLine } from './pdfHeadings.js';
import { PageLines, type TextItem } from './pdfLines.js';
import { withoutRunningLines } from './pdfRunningLines.js';
import { firstLineTitle } from './text.js';
import { ExtractionError } from './types.js';

export type PdfLimits = Pick<DocumentLimits, 'textChars' | 'pdfPages' | 'pdfExpandedBytes'>;

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

// pdf.js logs recoverable damage ("Indexing all PDF objects") to the console; errors still throw.
const PDFJS_SILENT = 0;

const readFailure = (error: unknown): string =>
  error instanceof Error && error.name === 'PasswordException'
    ? 'the PDF is password-protected'
    : `the PDF is damaged or not a PDF (${error instanceof Error ? error.message : String(error)})`;

/** Characters of text the pages read so far will contribute once assembled (see assembleDocument). */
interface TextBudget {
  readonly fileName: string;
  readonly maximum: number;
  used: number;
}

/**
 * One page's lines with their type sizes, read chunk by chunk as pdf.js produces them; the read is
 * cancelled (and pdf.js stops working on the page) as soon as the document's text passes its limit.
 */
const readPageLines = async (page: PdfPage, budget: TextBudget): Promise<PdfLine[]> => {
  const reader = page.streamTextContent().getReader();
  const lines = new PageLines();
  for (;;) {
    const chunk = (await reader.read()) as { done: true } | { done: false; value: { items: readonly TextItem[] } };
    if (chunk.done) break;
    for (const item of chunk.value.items) lines.add(item);
    // Whitespace of the page in progress still counts; it is collapsed once the page is complete.
    if (budget.used + lines.chars > budget.maximum) {
      // pdf.js's stream rejects a cancel without an Error as its reason.
      await reader.cancel(new Error('text limit reached'));
      throw new DocumentLimitError(budget.fileName, 'textChars', budget.maximum, budget.used + lines.chars);
    }
  }
  return lines.finish();
};

const readPages = async (pdf: PdfDocument, budget: TextBudget): Promise<PdfLine[][]> => {
  const pages: PdfLine[][] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const lines = await readPageLines(await pdf.getPage(number), budget);
    const length = normalizeWhitespace(lines.map((l) => l.text).join('\n')).length;
    // Non-empty pages are joined by a blank line.
    if (length > 0) budget.used += (budget.used > 0 ? 2 : 0) + length;
    pages.push(lines);
  }
  return pages;
};

/**
 * One section per page and per heading (pdfHeadings.ts), so a passage can cite the page it came
 * from and carry its heading path. The compressed streams are
 * measured before pdf.js sees the file, the page count is checked before any page is read, and the
 * text is read a chunk at a time, so no limit is checked after the work it bounds.
 */
export const extractPdf = async (fileName: string, bytes: Uint8Array, limits: PdfLimits): Promise<DraftDocument> => {
  const expansion = await measurePdfExpansion(bytes, limits.pdfExpandedBytes);
  if (expansion.outcome === 'exceeded')
    throw new DocumentLimitError(fileName, 'pdfExpandedBytes', limits.pdfExpandedBytes, expansion.reached);
  if (expansion.outcome === 'unmeasurable') {
    throw new ExtractionError(
      fileName,
      `${expansion.reason}, so how far its compressed streams expand cannot be measured`,
    );
  }
  let pdf: PdfDocument;
  try {
    // pdf.js transfers (detaches) the buffer it is given; a copy leaves the caller's bytes usable.
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: PDFJS_SILENT });
  } catch (error) {
    throw new ExtractionError(fileName, readFailure(error), { cause: error });
  }
  try {
    if (pdf.numPages > limits.pdfPages)
      throw new DocumentLimitError(fileName, 'pdfPages', limits.pdfPages, pdf.numPages);
    const pages = await readPages(pdf, { fileName, maximum: limits.textChars, used: 0 });
    const { info } = await pdf.getMetadata();
    const metadataTitle: unknown = (info as Record<string, unknown> | undefined)?.Title;
    const title =
      typeof metadataTitle === 'string' && metadataTitle.trim() !== ''
        ? metadataTitle
        : firstLineTitle(pages.map((lines) => lines.map((l) => l.text).join('\n')).join('\n'));
    const content = withoutRunningLines(pages);
    return { title, sections: pdfSections(content) };
  } catch (error) {
    if (error instanceof DocumentLimitError) throw error;
    throw new ExtractionError(fileName, readFailure(error), { cause: error });
  } finally {
    await pdf.destroy();
  }
};
