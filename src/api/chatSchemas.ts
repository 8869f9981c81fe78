import { z } from 'zod';
import {
  CHAT_ID_PATTERN,
  CHAT_MESSAGE_MAX,
  CHAT_ROLES,
  chatMessageProblem,
  chatTitleProblem,
  OBSERVER_EVENTS_LIMIT,
  SNAPSHOT_BOUNDS,
} from '../domain/chats.js';
import { queryInt } from './schemas.js';

/**
 * The console's chat forms and the observer lane's bodies (D-05, OBS-01, OBS-02, OBS-11), written
 * once for the pages, the JSON routes and the docs. Every object is strict (SLR-05).
 */
const checked = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const found = problem(value);
    if (found !== undefined) ctx.addIssue({ code: 'custom', message: found });
  });

/** 1-200 characters once trimmed, one line, never credential-shaped; stored trimmed. */
export const ChatTitleSchema = checked(chatTitleProblem).transform((title) => title.trim());
export const ChatMessageContentSchema = checked((content) => chatMessageProblem(content, CHAT_MESSAGE_MAX));
export const ChatIdSchema = z.string().regex(CHAT_ID_PATTERN, 'must be a chat id');

/** OBS-02: one quoted message of the recent-chat snapshot. */
const SnapshotMessageSchema = z.strictObject({
  role: z.enum(CHAT_ROLES),
  content: checked((content) => chatMessageProblem(content, SNAPSHOT_BOUNDS.charsPerMessage)),
});

/** OBS-01 [ref] body `{chat_session_id, context.messages}`; OBS-02 bounds, the total included. */
export const ObserverBindingRequestSchema = z.strictObject({
  chat_session_id: ChatIdSchema,
  context: z
    .strictObject({
      messages: z
        .array(SnapshotMessageSchema)
        .max(SNAPSHOT_BOUNDS.messages)
        .superRefine((messages, ctx) => {
          const total = messages.reduce((sum, m) => sum + m.content.length, 0);
          if (total > SNAPSHOT_BOUNDS.totalChars)
            ctx.addIssue({ code: 'custom', message: `must total at most ${SNAPSHOT_BOUNDS.totalChars} characters` });
        }),
    })
    .optional(),
});
export type ObserverBindingRequest = z.output<typeof ObserverBindingRequestSchema>;

/** OBS-11: `after_seq` and a `limit` of at most 100. */
export const ObserverEventsQuerySchema = z.strictObject({
  after_seq: queryInt(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: queryInt(OBSERVER_EVENTS_LIMIT.min, OBSERVER_EVENTS_LIMIT.max).default(OBSERVER_EVENTS_LIMIT.default),
});
