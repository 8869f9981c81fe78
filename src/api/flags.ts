/** The four authority/content flags every run, bundle, event page and tool result carries. */
export const NON_AUTHORITY_FLAGS = {
  answer_authority: false,
  assistant_answer: false,
  terminal_eligible: false,
  raw_content_included: false,
} as const;
