import { last, put, type CliRecipe } from '../test-recipe.js';

/** The agent the end-to-end agent tests run. */
export const e2eSpec = 'codex:gpt-5.5@lowest';

/**
 * `codex exec --json` at a `stub` provider, retries off. gpt-5.5 is in Codex's model catalog:
 * apply_patch is offered as a custom tool. An unknown model gets no apply_patch, only
 * exec_command (agent-clis.md §3.2).
 */
export const recipes: readonly CliRecipe[] = (['gpt-5.5', 'stub-model'] as const).map(
  (model): CliRecipe => ({
    variant: model === 'gpt-5.5' ? '' : model,
    ...(model === 'gpt-5.5' ? { faultExitCode: 1 } : {}),
    async setup({ home, workdir, url, prompt }) {
      await put(
        `${home}/.codex/config.toml`,
        [
          `model = "${model}"`,
          'model_provider = "stub"',
          '[analytics]',
          'enabled = false',
          '[features]',
          'plugins = false',
          '[model_providers.stub]',
          'name = "Stub"',
          `base_url = "${url}/v1"`,
          'env_key = "STUB_API_KEY"',
          'wire_api = "responses"',
          'request_max_retries = 0',
          'stream_max_retries = 0',
          '',
        ].join('\n'),
      );
      return {
        args: ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-m', model, '-C', workdir, prompt],
        env: { CODEX_HOME: `${home}/.codex`, STUB_API_KEY: 'sk-dummy' },
      };
    },
    finalMessage: (events) => {
      if (events.some((e) => e.type === 'turn.failed')) return null;
      return last(events.filter((e) => e.type === 'item.completed' && e.item?.type === 'agent_message'))?.item.text ?? null;
    },
  }),
);
