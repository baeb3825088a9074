import type { SetupInput } from '../types.js';
import type { ProviderModel } from '../provider-model.js';
import { wireFormatOfProvider } from '../provider-model.js';

/** The variable models.json names as the key source (pi resolves an env-var name to its value). */
export const PI_KEY_VARIABLE = 'BAKEOFF_API_KEY';

/**
 * pi 0.73.1's built-in providers whose every model speaks `openai-completions` (from
 * `getProviders()`/`getModels()` of its pi-ai). Their models keep pi's own metadata when only
 * the base URL is redirected.
 */
const CHAT_PROVIDERS = new Set([
  'cerebras', 'cloudflare-workers-ai', 'deepseek', 'groq', 'huggingface', 'moonshotai', 'moonshotai-cn',
  'opencode-go', 'openrouter', 'xai', 'zai',
]);

/**
 * `~/.pi/agent/models.json` sending the model to the metering proxy in the wire format its
 * provider prefix selects.
 *
 * `anthropic`, `openai` and the Chat Completions providers above are pi built-ins: the file only
 * overrides their `baseUrl` and key, so pi keeps its own model metadata (max tokens, thinking
 * levels, context window) as shipped, and `modelOverrides` puts the list prices in. An id pi
 * does not know gets pi's "custom model id" fallback, a copy of the provider's default model
 * (metadata and price included: `modelOverrides` cannot reach it).
 * Any other provider is declared as a custom `openai-completions` provider with this one model;
 * `reasoning` is set when an effort is asked for, since pi ignores `--thinking` otherwise.
 */
export function piModelsJson(input: SetupInput, ref: ProviderModel): string {
  const format = wireFormatOfProvider(`${ref.provider}/${ref.id}`);
  const baseUrl = format === 'anthropic-messages' ? input.baseUrl : `${input.baseUrl}/v1`;
  const cost = input.prices === null ? undefined : { ...input.prices };
  const builtIn = format !== 'openai-chat' || CHAT_PROVIDERS.has(ref.provider);
  const provider = builtIn
    ? { baseUrl, apiKey: PI_KEY_VARIABLE, ...(cost ? { modelOverrides: { [ref.id]: { cost } } } : {}) }
    : {
        baseUrl,
        api: 'openai-completions',
        apiKey: PI_KEY_VARIABLE,
        models: [{ id: ref.id, reasoning: input.effort !== null && input.effort !== 'off', ...(cost ? { cost } : {}) }],
      };
  return `${JSON.stringify({ providers: { [ref.provider]: provider } }, null, 2)}\n`;
}
