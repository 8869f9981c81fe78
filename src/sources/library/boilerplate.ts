import { sha256Hex } from '../../domain/hashing.js';
import { assembleDocument, type DraftSection } from './extract/assemble.js';
import type { ExtractedDocument } from './extract/types.js';

/*
 * Boilerplate is what a collection repeats on many of its pages: a footer ("Last updated …"), a
 * "Prev Up Home Next" bar, a copyright line. Each copy would be a passage that matches every
 * question about the site and answers none. A paragraph is boilerplate when it occurs, word for
 * word (whitespace aside), in at least BOILERPLATE_MIN_DOCUMENTS documents and in at least
 * BOILERPLATE_SHARE of the documents of one ingest batch. Counting needs no more memory than a
 * hash per distinct paragraph. (docs/solver.md, "The research library")
 */
export const BOILERPLATE_MIN_DOCUMENTS = 5;
export const BOILERPLATE_SHARE = 0.2;

const PARAGRAPH_BREAK = '\n\n';

interface Paragraph {
  readonly text: string;
  /** The first paragraph of a headed section is its heading line: it names the section, it is never boilerplate. */
  readonly label: boolean;
}

/** Each section's paragraphs, in order; the text is normalized, so one blank line separates them. */
const paragraphsBySection = (doc: ExtractedDocument): Paragraph[][] =>
  doc.sections.map((section) =>
    doc.text
      .slice(section.start, section.end)
      .split(PARAGRAPH_BREAK)
      .map((text) => text.trim())
      .filter((text) => text !== '')
      .map((text, index) => ({ text, label: index === 0 && section.heading !== null })),
  );

const keyOf = (paragraph: string): string => sha256Hex(paragraph).slice(0, 32);

/** Counts, for each paragraph, how many documents of the batch contain it. */
export class BoilerplateCounter {
  private readonly documentsWith = new Map<string, number>();
  private documents = 0;

  add(doc: ExtractedDocument): void {
    this.documents += 1;
    const seen = new Set<string>();
    for (const paragraph of paragraphsBySection(doc).flat()) {
      if (paragraph.label) continue;
      const key = keyOf(paragraph.text);
      if (seen.has(key)) continue;
      seen.add(key);
      this.documentsWith.set(key, (this.documentsWith.get(key) ?? 0) + 1);
    }
  }

  /** The keys of the paragraphs that repeat across enough of the documents added. */
  boilerplate(): ReadonlySet<string> {
    const threshold = Math.max(BOILERPLATE_MIN_DOCUMENTS, Math.ceil(BOILERPLATE_SHARE * this.documents));
    const keys = new Set<string>();
    for (const [key, count] of this.documentsWith) if (count >= threshold) keys.add(key);
    return keys;
  }
}

/**
 * The document without its boilerplate paragraphs. Its text and section ranges are assembled
 * again from what is left, so passages still cite exactly the stored text.
 */
export const withoutBoilerplate = (
  fileName: string,
  doc: ExtractedDocument,
  boilerplate: ReadonlySet<string>,
  maxChars: number,
): ExtractedDocument => {
  if (boilerplate.size === 0) return doc;
  let dropped = false;
  const sections: DraftSection[] = paragraphsBySection(doc).map((paragraphs, index) => {
    const kept = paragraphs.filter((paragraph) => paragraph.label || !boilerplate.has(keyOf(paragraph.text)));
    if (kept.length !== paragraphs.length) dropped = true;
    // A section that held nothing but boilerplate goes with it: its heading alone would be a passage that says nothing.
    const emptied = kept.length !== paragraphs.length && kept.every((paragraph) => paragraph.label);
    const section = doc.sections[index];
    return {
      heading: section?.heading ?? null,
      page: section?.page ?? null,
      body: emptied ? '' : kept.map((paragraph) => paragraph.text).join(PARAGRAPH_BREAK),
    };
  });
  return dropped ? assembleDocument(fileName, doc.mediaType, { title: doc.title, sections }, maxChars) : doc;
};
