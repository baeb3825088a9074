import { UserError } from '../../errors.js';
import type { WireFormat } from '../../meter/index.js';

/** A pi/OpenCode model id split at its first slash: `openrouter/qwen/qwen3-coder` → `openrouter`, `qwen/qwen3-coder`. */
export interface ProviderModel {
  readonly provider: string;
  readonly id: string;
}

/** Splits `<provider>/<model>`; throws a UserError naming the harness when either part is missing. */
export function splitProviderModel(harness: string, model: string): ProviderModel {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw new UserError(`agent ${harness}:${model}: expected the model as <provider>/<model> (e.g. ${harness}:anthropic/claude-sonnet-4-5), received "${model}"`);
  }
  return { provider: model.slice(0, slash), id: model.slice(slash + 1) };
}

/**
 * The wire format bakeoff configures pi and OpenCode to speak, chosen by the provider prefix:
 * `anthropic/…` → Anthropic Messages, `openai/…` → OpenAI Responses, anything else → Chat Completions.
 */
export function wireFormatOfProvider(model: string): Exclude<WireFormat, 'gemini-generate'> {
  const provider = model.slice(0, Math.max(0, model.indexOf('/')));
  if (provider === 'anthropic') return 'anthropic-messages';
  if (provider === 'openai') return 'openai-responses';
  return 'openai-chat';
}
