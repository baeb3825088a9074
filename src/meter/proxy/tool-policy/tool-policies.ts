import type { WireFormat } from '../../types.js';
import { anthropicMessagesPolicy } from './anthropic-messages.js';
import { geminiGeneratePolicy } from './gemini-generate.js';
import { openaiChatPolicy } from './openai-chat.js';
import { openaiResponsesPolicy } from './openai-responses.js';
import type { FormatPolicy } from './types.js';

/** The tool policy of each wire format: its tables and how it reads a request and a response. */
export const TOOL_POLICIES: Readonly<Record<WireFormat, FormatPolicy>> = {
  'anthropic-messages': anthropicMessagesPolicy,
  'openai-responses': openaiResponsesPolicy,
  'openai-chat': openaiChatPolicy,
  'gemini-generate': geminiGeneratePolicy,
};

/** A family of models that search the web by themselves, with no tool in the request. */
export interface SearchModelRule {
  readonly name: string;
  readonly pattern: RegExp;
  /** A model id of the family (a unit test). */
  readonly example: string;
}

/**
 * Models that retrieve from the web on every request (OpenAI's search models, Perplexity's
 * Sonar, deep-research models, OpenRouter's `:online` variants): a request naming one is
 * refused. A model that searches by itself under an unlisted name cannot be told from the
 * request; the response check (`usedTools`) then voids the run.
 */
export const SEARCH_MODELS: readonly SearchModelRule[] = [
  { name: 'OpenAI search models (*-search-preview, *-search-api)', pattern: /search-(preview|api)\b/i, example: 'gpt-4o-search-preview' },
  { name: 'Perplexity Sonar (sonar*, perplexity/*)', pattern: /(^|\/)sonar([-.:]|$)|^perplexity\//i, example: 'perplexity/sonar-pro' },
  { name: 'deep-research models', pattern: /deep-research/i, example: 'o4-mini-deep-research' },
  { name: 'OpenRouter :online variants (web plugin)', pattern: /:online$/i, example: 'openai/gpt-5:online' },
];

/** The search-model family a model id belongs to, or null. */
export function searchModelOf(model: string | null): SearchModelRule | null {
  return model === null ? null : (SEARCH_MODELS.find((r) => r.pattern.test(model)) ?? null);
}
