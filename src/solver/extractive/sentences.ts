/** Sentence boundaries for extractive answers: a terminal mark followed by space and a capital or digit. */
export const splitSentences = (text: string): string[] =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"'(\[`*])/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 12);
