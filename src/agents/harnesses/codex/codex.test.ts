import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SetupInput } from '../types.js';
import { codex } from './index.js';

const fixture = (file: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../../test/fixtures/harness-streams/codex/${file}`, import.meta.url)), 'utf8');

describe('parse on streams captured from codex 0.171.0', () => {
  it('takes turn.completed usage as is: input already includes cached and cache-write tokens', () => {
    expect(codex.parse(fixture('success.jsonl'), 0)).toEqual({
      tokens: { inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: 12 },
      costUsd: null,
      turns: null,
      finalMessage: 'Done: created hello.txt.',
      errors: [],
      failed: false,
      model: null,
      version: null,
    });
  });

  it('reads the notes capture (§5.2) the same way', () => {
    const report = codex.parse(fixture('notes-success.jsonl'), 0);
    expect(report.tokens).toEqual({ inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 0, outputTokens: 133, reasoningTokens: 12 });
    expect(report.failed).toBe(false);
  });

  it('lists the fallback-metadata error item without failing the session', () => {
    const report = codex.parse(fixture('unknown-model.jsonl'), 0);
    expect(report.failed).toBe(false);
    expect(report.errors).toEqual([expect.stringMatching(/^Model metadata for `stub-model` not found/)]);
    expect(report.finalMessage).toBe('Done: created hello.txt.');
  });

  it('fails on turn.failed after the five reconnect notices', () => {
    const report = codex.parse(fixture('failure.jsonl'), 1);
    expect(report.failed).toBe(true);
    expect(report.tokens).toBeNull();
    expect(report.errors.filter((e) => e.startsWith('Reconnecting...'))).toHaveLength(5);
    expect(report.errors.at(-1)).toMatch(/high demand/);
  });

  it('does not fail a turn that recovered after a reconnect notice', () => {
    const lines = [
      { type: 'turn.started' },
      { type: 'error', message: 'Reconnecting... 1/5 (stream disconnected)' },
      { type: 'item.completed', item: { id: 'i', type: 'agent_message', text: 'ok' } },
      { type: 'turn.completed', usage: { input_tokens: 5, cached_input_tokens: 0, output_tokens: 2 } },
    ];
    const report = codex.parse(lines.map((l) => JSON.stringify(l)).join('\n'), 0);
    expect(report.failed).toBe(false);
    expect(report.errors).toEqual(['Reconnecting... 1/5 (stream disconnected)']);
    expect(report.tokens).toEqual({ inputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: null, outputTokens: 2, reasoningTokens: null });
  });
});

describe('efforts', () => {
  it('takes the levels of the catalog baked into the binary, lowest first', () => {
    expect(codex.efforts('gpt-5.5')).toEqual(['low', 'medium', 'high', 'xhigh']);
    expect(codex.efforts('gpt-6-sol')).toEqual(['low', 'medium', 'high', 'xhigh', 'max', 'ultra']);
    expect(codex.efforts('my-proxy-model')).toEqual(['low', 'medium', 'high']);
  });
});

describe('setup', () => {
  const input: SetupInput = {
    installDir: '/opt/codex', home: '/home/a', workspace: '/w', prompt: 'Do it', model: 'gpt-5.5', effort: 'xhigh',
    baseUrl: 'http://127.0.0.1:9', apiKey: 'k', prices: null,
  };

  it('runs exec --json in the workspace with the effort as a config override, the prompt on stdin', () => {
    const setup = codex.setup(input);
    expect(setup.argv).toEqual([
      '/opt/codex/node_modules/.bin/codex', 'exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox',
      '-m', 'gpt-5.5', '-C', '/w', '-c', 'model_reasoning_effort="xhigh"',
    ]);
    expect(setup.stdin).toBe('Do it');
    expect(setup.env).toEqual({ CODEX_HOME: '/home/a/.codex', BAKEOFF_API_KEY: 'k' });
  });

  it('points a custom Responses provider at the proxy, with Codex default retries and no analytics or plugins', () => {
    const toml = codex.setup(input).homeFiles['.codex/config.toml'];
    expect(toml).toContain('model_provider = "bakeoff"');
    expect(toml).toContain('base_url = "http://127.0.0.1:9/v1"');
    expect(toml).toContain('wire_api = "responses"');
    expect(toml).toContain('env_key = "BAKEOFF_API_KEY"');
    expect(toml).toMatch(/request_max_retries = 4\nstream_max_retries = 5\n/);
    expect(toml).toMatch(/\[analytics\]\nenabled = false/);
    expect(toml).toMatch(/\[features\]\nplugins = false/);
  });
});
