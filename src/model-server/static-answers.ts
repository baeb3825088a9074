import { SCRIPTED_COUNTS } from './scripted-usage.js';

/** Models `GET …/models` lists: the ones the notes and tests drive the CLIs with, and the default. */
export const LISTED_MODELS = ['claude-sonnet-4-5', 'gpt-5.5', 'gemini-2.5-pro', 'scripted'] as const;

/** `…/messages/count_tokens` (`{input_tokens}`) or Gemini `:countTokens` (`{totalTokens}`). */
export function countTokensAnswer(format: 'anthropic-messages' | 'gemini-generate'): unknown {
  const input = SCRIPTED_COUNTS.uncached + SCRIPTED_COUNTS.cacheRead;
  return format === 'anthropic-messages' ? { input_tokens: input } : { totalTokens: input };
}

/**
 * A model list. Gemini's shape under `/v1beta/`; otherwise one list readable both as OpenAI's
 * (`object`, `data[].id`, `owned_by`) and Anthropic's (`data[].type`, `display_name`, `has_more`).
 */
export function listModelsAnswer(gemini: boolean): unknown {
  if (gemini) {
    return { models: LISTED_MODELS.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'countTokens'] })) };
  }
  const data = LISTED_MODELS.map((id) => ({
    id,
    object: 'model',
    type: 'model',
    display_name: id,
    created: 0,
    created_at: '1970-01-01T00:00:00Z',
    owned_by: 'bakeoff',
  }));
  return { object: 'list', data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}
