import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * How to point each real coding-agent CLI at a local model server, offline and isolated
 * (agent-clis.md §7): a fresh HOME, the CLI's own config files, env without the host's.
 */
export interface CliRecipe {
  readonly name: string;
  /** npm prefix under /var/lib/bakeoff/harnesses. */
  readonly prefix: string;
  readonly bin: string;
  /** Writes config under `home` and returns the argv (after the binary) and the env. */
  setup(input: { home: string; workdir: string; url: string; prompt: string }): Promise<{ args: string[]; env: Record<string, string> }>;
  /** The agent's final answer, read from its JSONL stdout; null when there is none. */
  finalMessage(events: readonly Event[]): string | null;
}

/** One line of a CLI's JSONL output. */
export type Event = Record<string, any>;

/** The JSON lines of a CLI's stdout (other lines skipped). */
export function readEvents(stdout: string): Event[] {
  return stdout.split('\n').flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return value !== null && typeof value === 'object' ? [value as Event] : [];
    } catch {
      return [];
    }
  });
}

const last = <T>(items: readonly T[]): T | undefined => items[items.length - 1];

export const HARNESS_ROOT = '/var/lib/bakeoff/harnesses';

async function put(file: string, content: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

const anthropicModel = 'claude-sonnet-4-5';

export const RECIPES: readonly CliRecipe[] = [
  {
    name: 'claude-code',
    prefix: 'claude-code-2.1.332',
    bin: 'claude',
    async setup({ url, prompt }) {
      return {
        args: ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', '--model', anthropicModel, '--no-session-persistence'],
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
  // gpt-5.5 is in Codex's model catalog: apply_patch is offered as a custom tool. An unknown
  // model gets no apply_patch, only exec_command (agent-clis.md §3.2).
  ...(['gpt-5.5', 'stub-model'] as const).map(
    (model): CliRecipe => ({
      name: model === 'gpt-5.5' ? 'codex' : `codex ${model}`,
      prefix: 'codex-0.171.0',
      bin: 'codex',
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
  ),
  ...(['anthropic-messages', 'openai-responses'] as const).map(
    (api): CliRecipe => ({
      name: api === 'anthropic-messages' ? 'pi' : `pi ${api}`,
      prefix: 'pi-0.73.1',
      bin: 'pi',
      async setup({ home, url, prompt }) {
        const baseUrl = api === 'anthropic-messages' ? url : `${url}/v1`;
        await put(`${home}/.pi/agent/models.json`, {
          providers: { stub: { baseUrl, api, apiKey: 'STUB_API_KEY', models: [{ id: anthropicModel, reasoning: true }] } },
        });
        await put(`${home}/.pi/agent/settings.json`, { retry: { enabled: false, provider: { maxRetries: 0 } } });
        return {
          args: ['-p', '--mode', 'json', '--no-session', '--provider', 'stub', '--model', anthropicModel, prompt],
          env: { PI_CODING_AGENT_DIR: `${home}/.pi/agent`, PI_OFFLINE: '1', PI_TELEMETRY: '0', STUB_API_KEY: 'sk-dummy' },
        };
      },
      finalMessage: (events) => {
        const message = last(events.filter((e) => e.type === 'message_end' && e.message?.role === 'assistant'))?.message;
        if (!message || message.stopReason === 'error') return null;
        return (message.content as Event[]).filter((c) => c.type === 'text').map((c) => c.text).join('');
      },
    }),
  ),
  ...(['@ai-sdk/anthropic', '@ai-sdk/openai-compatible'] as const).map(
    (npm): CliRecipe => ({
      name: `opencode ${npm}`,
      prefix: 'opencode-1.18.33',
      bin: 'opencode',
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
              models: { [anthropicModel]: { name: 'Stub', limit: { context: 200000, output: 32000 } } },
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
          args: ['run', '--format', 'json', '--title', 'bench', '--model', `stub/${anthropicModel}`, '--dir', workdir, prompt],
          env: { OPENCODE_CONFIG: config, OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', STUB_API_KEY: 'sk-dummy' },
        };
      },
      finalMessage: (events) => {
        if (events.some((e) => e.type === 'error')) return null;
        return last(events.filter((e) => e.type === 'text'))?.part.text ?? null;
      },
    }),
  ),
  {
    name: 'gemini-cli',
    prefix: 'gemini-cli-0.61.0',
    bin: 'gemini',
    async setup({ home, url, prompt }) {
      await put(`${home}/.gemini/settings.json`, {
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      });
      return {
        args: ['-p', prompt, '--output-format', 'stream-json', '--yolo', '-m', 'gemini-2.5-pro'],
        env: { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'dummy' },
      };
    },
    finalMessage: (events) => {
      if (last(events)?.type !== 'result' || last(events)?.status !== 'success') return null;
      // The answer streams as assistant `message` deltas after the last tool result.
      const lastTool = events.map((e) => e.type).lastIndexOf('tool_result');
      const text = events.slice(lastTool + 1).filter((e) => e.type === 'message' && e.role === 'assistant');
      return text.map((e) => e.content).join('');
    },
  },
];
