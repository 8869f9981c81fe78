import type { PendingQuestion } from './run.js';

/**
 * ATP-26..ATP-28 in Helix's own answer shape (`{ question_id, value }`), checked on every surface
 * that answers (REST and MCP continue, `helix_run_answer`): a skip is `{ "is_skipped": true }` and
 * only where the question allows it; a confirmation is `{ "is_confirmed": boolean, "feedback"?: string }`.
 * Returns what is wrong, or undefined.
 */
export const answerShapeIssue = (question: PendingQuestion, value: unknown): string | undefined => {
  const fields = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  if (fields !== undefined && 'is_skipped' in fields) {
    if (fields.is_skipped !== true || Object.keys(fields).length !== 1) return 'a skip is exactly { is_skipped: true }';
    return question.skippable === true ? undefined : 'this question may not be skipped';
  }
  if (question.kind !== 'confirmation') return undefined;
  const confirmation = fields as { is_confirmed?: unknown; feedback?: unknown } | undefined;
  const extra = fields === undefined ? [] : Object.keys(fields).filter((k) => k !== 'is_confirmed' && k !== 'feedback');
  if (
    confirmation === undefined ||
    typeof confirmation.is_confirmed !== 'boolean' ||
    (confirmation.feedback !== undefined && typeof confirmation.feedback !== 'string') ||
    extra.length > 0
  )
    return 'a confirmation is { is_confirmed: boolean, feedback?: string }';
  return undefined;
};
