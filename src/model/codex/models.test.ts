import { describe, expect, it } from 'vitest';
import { ModelError } from '../port.js';
import { parseCodexModels } from './models.js';

describe('parseCodexModels', () => {
  it('requires the top-level models array', () => {
    for (const body of [{}, { data: [] }, { models: {} }, null, 'models', []]) {
      expect(() => parseCodexModels(body)).toThrow(ModelError);
    }
    expect(parseCodexModels({ models: [] })).toEqual([]);
  });

  it('keeps order, fills sensible defaults, skips entries without a slug and hidden ones', () => {
    const models = parseCodexModels({
      models: [
        { slug: 'b-model' },
        { display_name: 'no slug' },
        { slug: 'hidden', visibility: 'hide' },
        {
          slug: 'a-model',
          visibility: 'list',
          supported_reasoning_levels: ['low', { effort: 'xhigh' }, { nope: 1 }],
          context_window: 'big',
        },
      ],
    });
    expect(models).toEqual([
      {
        id: 'b-model',
        displayName: 'b-model',
        reasoningLevels: [],
        defaultReasoningLevel: null,
        supportsParallelToolCalls: false,
        contextWindow: null,
        inputModalities: [],
      },
      {
        id: 'a-model',
        displayName: 'a-model',
        reasoningLevels: ['low', 'xhigh'],
        defaultReasoningLevel: null,
        supportsParallelToolCalls: false,
        contextWindow: null,
        inputModalities: [],
      },
    ]);
  });
});
