import { ModelError, type ModelInfo } from '../port.js';

/**
 * Codex model discovery (docs/spec/codex-subscription-protocol.md, docs/spec/codex-protocol-notes.md "Model
 * discovery"). Only the canonical top-level `models` array is accepted; entries keep provider
 * order; unknown fields are ignored.
 *
 * `visibility`: entries whose visibility is stated and is not "list" are left out. The official
 * Codex client offers only "list" models to users; the others are internal or retired, and a
 * model list here exists to show what a user may choose. An entry without `visibility` is kept.
 * An entry without a string `slug` cannot be named by anyone and is skipped rather than failing
 * the whole list.
 */
const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const reasoningLevels = (value: unknown): string[] => {
  if (!Array.isArray(value)) return [];
  return value.flatMap((level: unknown) => {
    if (typeof level === 'string') return [level];
    const effort = asRecord(level)?.effort;
    return typeof effort === 'string' ? [effort] : [];
  });
};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];

export const parseCodexModels = (json: unknown): ModelInfo[] => {
  const models = asRecord(json)?.models;
  if (!Array.isArray(models)) {
    throw new ModelError('protocol', 'the Codex model list has no top-level `models` array', { retryable: false });
  }
  return models.flatMap((entry: unknown): ModelInfo[] => {
    const model = asRecord(entry);
    const slug = model?.slug;
    if (model === undefined || typeof slug !== 'string' || slug === '') return [];
    const visibility = model.visibility;
    if (typeof visibility === 'string' && visibility !== 'list') return [];
    const displayName = model.display_name;
    const defaultLevel = model.default_reasoning_level;
    const contextWindow = model.context_window;
    return [
      {
        id: slug,
        displayName: typeof displayName === 'string' && displayName !== '' ? displayName : slug,
        reasoningLevels: reasoningLevels(model.supported_reasoning_levels),
        defaultReasoningLevel: typeof defaultLevel === 'string' ? defaultLevel : null,
        supportsParallelToolCalls: model.supports_parallel_tool_calls === true,
        contextWindow: typeof contextWindow === 'number' && Number.isFinite(contextWindow) ? contextWindow : null,
        inputModalities: strings(model.input_modalities),
      },
    ];
  });
};
