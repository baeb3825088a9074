import { last, type CliRecipe } from '../test-recipe.js';

/** The agent the end-to-end agent tests run. */
export const e2eSpec = 'claude-code:claude-sonnet-4-5';

/** `claude -p` at the model server, retries off. */
export const recipes: readonly CliRecipe[] = [
  {
    variant: '',
    faultExitCode: 1,
    async setup({ url, prompt }) {
      return {
        args: ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', '--model', 'claude-sonnet-4-5', '--no-session-persistence'],
        env: {
          IS_SANDBOX: '1',
          ANTHROPIC_BASE_URL: url,
          ANTHROPIC_API_KEY: 'sk-ant-dummy',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          CLAUDE_CODE_MAX_RETRIES: '0',
        },
      };
    },
    finalMessage: (events) => {
      const result = last(events.filter((e) => e.type === 'result'));
      return result && result.is_error === false ? String(result.result) : null;
    },
  },
];
