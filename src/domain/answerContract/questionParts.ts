/**
 * The parts of a question that asks for several things at once: "What is X, and which option
 * sets Y?" has two, and an answer to one of them is half an answer. A part starts at a new
 * question inside the question — after a question mark, a semicolon, or an "and" that opens a
 * new interrogative clause. Noun phrases joined by "and" ("the tab width and the output width")
 * stay one part: their focus terms are all judged together.
 */
import { contentTerms } from '../terms.js';

const INTERROGATIVE = '(?:what|which|how|who|whom|whose|when|where|why|does|do|did|is|are|can|could|should|will|would)';
const PART_BREAK = new RegExp(`\\?\\s+(?=\\S)|;\\s*|,?\\s+(?:and|but)\\s+(?:also\\s+)?(?=${INTERROGATIVE}\\b)`, 'i');

/** The parts of `question`, in order; a piece with no content word of its own joins the part before it. */
export const questionParts = (question: string): string[] => {
  const parts: string[] = [];
  for (const piece of question.split(PART_BREAK)) {
    const text = piece.trim().replace(/^[,;]\s*/, '');
    if (text === '') continue;
    const previous = parts.length - 1;
    if (contentTerms(text).length === 0 && previous >= 0) parts[previous] = `${parts[previous]} ${text}`;
    else parts.push(text);
  }
  return parts.length === 0 ? [question.trim()] : parts;
};
