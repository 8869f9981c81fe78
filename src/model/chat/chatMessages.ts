import type { ModelItem, ModelRequest, ToolSpec } from '../port.js';

/** One OpenAI Chat Completions message, as local servers (Ollama, vLLM, llama.cpp, LM Studio) accept it. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * Provider-neutral items as Chat Completions messages. Consecutive function calls (and the
 * assistant text just before them) form one assistant message, because the wire format carries a
 * turn's tool calls on the assistant message that made them. Reasoning items belong to other
 * providers' continuation state and have no Chat Completions form, so they are dropped.
 */
export const toChatMessages = (instructions: string, items: readonly ModelItem[]): ChatMessage[] => {
  const messages: ChatMessage[] = [];
  if (instructions !== '') messages.push({ role: 'system', content: instructions });
  for (const item of items) {
    switch (item.type) {
      case 'message':
        messages.push(
          item.role === 'user' ? { role: 'user', content: item.text } : { role: 'assistant', content: item.text },
        );
        break;
      case 'function_call': {
        const call: ChatToolCall = {
          id: item.callId,
          type: 'function',
          function: { name: item.name, arguments: item.arguments },
        };
        const last = messages.at(-1);
        if (last?.role === 'assistant') {
          last.tool_calls ??= [];
          last.tool_calls.push(call);
        } else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
        break;
      }
      case 'function_call_output':
        messages.push({ role: 'tool', tool_call_id: item.callId, content: item.output });
        break;
      case 'reasoning':
        break;
    }
  }
  return messages;
};

export const toChatTools = (tools: readonly ToolSpec[]) =>
  tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));

/** The request body; `stream_options.include_usage` makes the server send a final usage chunk. */
export const chatRequestBody = (request: ModelRequest): Record<string, unknown> => ({
  model: request.model,
  messages: toChatMessages(request.instructions, request.input),
  stream: true,
  stream_options: { include_usage: true },
  ...(request.tools.length > 0 ? { tools: toChatTools(request.tools), tool_choice: 'auto' } : {}),
  ...(request.reasoningEffort !== undefined ? { reasoning_effort: request.reasoningEffort } : {}),
});
