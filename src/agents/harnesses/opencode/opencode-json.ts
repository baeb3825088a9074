import type { ProviderModel } from '../provider-model.js';
import { wireFormatOfProvider } from '../provider-model.js';
import type { SetupInput } from '../types.js';

/** OpenCode's own web tools (webfetch always; websearch and codesearch with Exa), denied on the closed web. */
export const OPENCODE_WEB_TOOLS = ['webfetch', 'websearch', 'codesearch'] as const;

/** The variable the config's `{env:…}` key reads. */
export const OPENCODE_KEY_VARIABLE = 'BAKEOFF_API_KEY';

const SDK_PACKAGE = {
  'anthropic-messages': '@ai-sdk/anthropic',
  'openai-responses': '@ai-sdk/openai',
  'openai-chat': '@ai-sdk/openai-compatible',
} as const;

/**
 * `~/.config/opencode/opencode.json`: the model's provider pointed at the metering proxy
 * (`<base>/v1`) through the AI SDK package of the wire format its prefix selects (all three are
 * bundled in the binary). The provider keeps its id, so a model OpenCode knows from its bundled
 * models.dev snapshot keeps that metadata (limits, reasoning, release date); the model entry is
 * merged over it and makes an unknown id usable. `reasoning: true` is set when an effort is
 * asked for (OpenCode offers variants only for reasoning models), and the list prices replace
 * the snapshot's when given. Closed web: `permission` denies its own web tools.
 */
export function opencodeJson(input: SetupInput, ref: ProviderModel): string {
  const format = wireFormatOfProvider(`${ref.provider}/${ref.id}`);
  const model = {
    ...(input.effort === null ? {} : { reasoning: true }),
    ...(input.prices === null
      ? {}
      : {
          cost: {
            input: input.prices.input,
            output: input.prices.output,
            cache_read: input.prices.cacheRead,
            cache_write: input.prices.cacheWrite,
          },
        }),
  };
  const config = {
    autoupdate: false,
    share: 'disabled',
    ...(input.openWeb ? {} : { permission: Object.fromEntries(OPENCODE_WEB_TOOLS.map((tool) => [tool, 'deny'])) }),
    provider: {
      [ref.provider]: {
        npm: SDK_PACKAGE[format],
        options: { baseURL: `${input.baseUrl}/v1`, apiKey: `{env:${OPENCODE_KEY_VARIABLE}}` },
        models: { [ref.id]: model },
      },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * OpenCode runs an in-process `npm install @opencode-ai/plugin` into every config dir at
 * startup (a real connection to registry.npmjs.org). It skips the install when `node_modules/`
 * exists and package-lock.json already lists package.json's dependencies (agent-clis.md §3.4).
 */
export const PLUGIN_INSTALL_STOPPERS: Readonly<Record<string, string>> = {
  '.config/opencode/package.json': `${JSON.stringify({ dependencies: { '@opencode-ai/plugin': '*' } })}\n`,
  '.config/opencode/package-lock.json': `${JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } } })}\n`,
  '.config/opencode/node_modules/.keep': '',
};
