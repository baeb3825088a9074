import { mkdir } from 'node:fs/promises';
import { last, put, type CliRecipe } from '../test-recipe.js';

/** The agent the end-to-end agent tests run. */
export const e2eSpec = 'opencode:anthropic/claude-sonnet-4-5';

const model = 'claude-sonnet-4-5';

/** `opencode run --format json` at a `stub` provider, one recipe per AI SDK package (wire format). */
export const recipes: readonly CliRecipe[] = (['@ai-sdk/anthropic', '@ai-sdk/openai-compatible'] as const).map(
  (npm): CliRecipe => ({
    variant: npm,
    async setup({ home, workdir, url, prompt }) {
      const config = `${home}/opencode.json`;
      await put(config, {
        autoupdate: false,
        share: 'disabled',
        provider: {
          stub: {
            npm,
            name: 'Stub',
            options: { baseURL: `${url}/v1`, apiKey: '{env:STUB_API_KEY}' },
            models: { [model]: { name: 'Stub', limit: { context: 200000, output: 32000 } } },
          },
        },
      });
      // Pre-seeded so OpenCode does not npm-install its plugin package (agent-clis.md §3.4).
      await mkdir(`${home}/.config/opencode/node_modules`, { recursive: true });
      await put(`${home}/.config/opencode/package.json`, { dependencies: { '@opencode-ai/plugin': '*' } });
      await put(`${home}/.config/opencode/package-lock.json`, {
        lockfileVersion: 3,
        packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } },
      });
      return {
        args: ['run', '--format', 'json', '--title', 'bench', '--model', `stub/${model}`, '--dir', workdir, prompt],
        env: { OPENCODE_CONFIG: config, OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', STUB_API_KEY: 'sk-dummy' },
      };
    },
    finalMessage: (events) => {
      if (events.some((e) => e.type === 'error')) return null;
      return last(events.filter((e) => e.type === 'text'))?.part.text ?? null;
    },
  }),
);
