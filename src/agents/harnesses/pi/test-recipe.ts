import { last, put, type CliEvent, type CliRecipe } from '../test-recipe.js';

/** The agent the end-to-end agent tests run. */
export const e2eSpec = 'pi:anthropic/claude-sonnet-4-5';

const model = 'claude-sonnet-4-5';

/** `pi -p --mode json` at a `stub` provider in models.json, one recipe per wire format; retries off. */
export const recipes: readonly CliRecipe[] = (['anthropic-messages', 'openai-responses'] as const).map(
  (api): CliRecipe => ({
    variant: api === 'anthropic-messages' ? '' : api,
    // pi exits 0 even when the session failed (agent-clis.md §6).
    ...(api === 'anthropic-messages' ? { faultExitCode: 0 } : {}),
    async setup({ home, url, prompt }) {
      const baseUrl = api === 'anthropic-messages' ? url : `${url}/v1`;
      await put(`${home}/.pi/agent/models.json`, {
        providers: { stub: { baseUrl, api, apiKey: 'STUB_API_KEY', models: [{ id: model, reasoning: true }] } },
      });
      await put(`${home}/.pi/agent/settings.json`, { retry: { enabled: false, provider: { maxRetries: 0 } } });
      return {
        args: ['-p', '--mode', 'json', '--no-session', '--provider', 'stub', '--model', model, prompt],
        env: { PI_CODING_AGENT_DIR: `${home}/.pi/agent`, PI_OFFLINE: '1', PI_TELEMETRY: '0', STUB_API_KEY: 'sk-dummy' },
      };
    },
    finalMessage: (events) => {
      const message = last(events.filter((e) => e.type === 'message_end' && e.message?.role === 'assistant'))?.message;
      if (!message || message.stopReason === 'error') return null;
      return (message.content as CliEvent[]).filter((c) => c.type === 'text').map((c) => c.text).join('');
    },
  }),
);
