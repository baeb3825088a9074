import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { binOf } from '../../install-harness.js';
import { describe, expect, it } from 'vitest';
import { capturedStream, setupInputOf, stubSuccessReport } from '../captured-streams.test-support.js';
import { codex } from './index.js';

const reader = await codex.stream();

const fixture = (file: string): string => capturedStream('codex', file);

describe('parse on streams captured from codex 0.171.0', () => {
  it('takes turn.completed usage as is: input already includes cached and cache-write tokens', () => {
    expect(reader.parse(fixture('success.jsonl'), 0)).toEqual(stubSuccessReport({
      tokens: { inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: 12 },
    }));
  });

  it('reads the notes capture (§5.2) the same way', () => {
    const report = reader.parse(fixture('notes-success.jsonl'), 0);
    expect(report.tokens).toEqual({ inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 0, outputTokens: 133, reasoningTokens: 12 });
    expect(report.failed).toBe(false);
  });

  it('lists the fallback-metadata error item without failing the session', () => {
    const report = reader.parse(fixture('unknown-model.jsonl'), 0);
    expect(report.failed).toBe(false);
    expect(report.errors).toEqual([expect.stringMatching(/^Model metadata for `stub-model` not found/)]);
    expect(report.finalMessage).toBe('Done: created hello.txt.');
  });

  it('fails on turn.failed after the five reconnect notices', () => {
    const report = reader.parse(fixture('failure.jsonl'), 1);
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
    const report = reader.parse(lines.map((l) => JSON.stringify(l)).join('\n'), 0);
    expect(report.failed).toBe(false);
    expect(report.errors).toEqual(['Reconnecting... 1/5 (stream disconnected)']);
    expect(report.tokens).toEqual({ inputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: null, outputTokens: 2, reasoningTokens: null });
  });
});

describe('the model catalog, read from the installed codex (`codex debug models`)', () => {
  const bin = binOf(codex);
  const env = (home: string, codexHome?: string) => ({ PATH: process.env.PATH, HOME: home, ...(codexHome ? { CODEX_HOME: codexHome } : {}) });

  it('without a Codex home: the catalog bundled with the binary', async () => {
    const catalog = await codex.catalog!({ bin, env: env('/nonexistent-home') });
    expect(catalog.source).toMatch(/^codex debug models --bundled/);
    expect(catalog.levels('gpt-5.5')).toEqual(['low', 'medium', 'high', 'xhigh']);
    expect(catalog.levels('gpt-6-sol')).toEqual(['low', 'medium', 'high', 'xhigh', 'max', 'ultra']);
    expect(catalog.levels('my-proxy-model')).toBeNull();
  });

  it('with a Codex home whose config names another catalog: that one, said to differ from the bundled one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-codex-catalog-test-'));
    try {
      const bundled = JSON.parse((await codex.catalog!({ bin, env: env('/nonexistent-home') })).text) as { models: { slug: string; supported_reasoning_levels: { effort: string }[] }[] };
      const gpt = bundled.models.find((m) => m.slug === 'gpt-5.5')!;
      const mine = { models: [{ ...gpt, supported_reasoning_levels: gpt.supported_reasoning_levels.filter((l) => ['high', 'medium'].includes(l.effort)) }] };
      await writeFile(path.join(dir, 'catalog.json'), JSON.stringify(mine));
      await writeFile(path.join(dir, 'config.toml'), `model_catalog_json = ${JSON.stringify(path.join(dir, 'catalog.json'))}\n`);
      const catalog = await codex.catalog!({ bin, env: env('/nonexistent-home', dir) });
      expect(catalog.source).toBe(`codex debug models with CODEX_HOME=${dir} (not the bundled catalog: it comes from that Codex home)`);
      expect(catalog.levels('gpt-5.5')).toEqual(['medium', 'high']);
      expect(catalog.levels('gpt-6-sol')).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('setup', () => {
  const input = setupInputOf({ installDir: '/opt/codex', model: 'gpt-5.5', effort: 'xhigh' });

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

  it('on a subscription: the ChatGPT backend\'s paths through the proxy, a dummy ChatGPT login, and no key', () => {
    const setup = codex.setup({ ...input, subscription: { plan: 'pro' } });
    const toml = setup.homeFiles['.codex/config.toml']!;
    expect(toml).toContain('base_url = "http://127.0.0.1:9/backend-api/codex"');
    expect(toml).toContain('requires_openai_auth = true');
    expect(toml).not.toContain('env_key');
    expect(toml).toMatch(/\[features\]\nplugins = false\nenable_request_compression = false\napps = false/);
    expect(setup.env).toEqual({ CODEX_HOME: '/home/a/.codex' });
    const auth = JSON.parse(setup.homeFiles['.codex/auth.json']!) as { auth_mode: string; tokens: { id_token: string; access_token: string; account_id: string } };
    expect(auth.auth_mode).toBe('chatgpt');
    expect(auth.tokens.account_id).toBe('bakeoff-dummy-account');
    const claims = JSON.parse(Buffer.from(auth.tokens.id_token.split('.')[1]!, 'base64url').toString()) as Record<string, Record<string, string>>;
    expect(claims['https://api.openai.com/auth']).toMatchObject({ chatgpt_plan_type: 'pro', chatgpt_account_id: 'bakeoff-dummy-account' });
    expect(auth.tokens.access_token.endsWith('.bakeoff-dummy-signature')).toBe(true);
  });

  it('hands the session the catalog the levels were resolved from (model_catalog_json), when there is one', () => {
    expect(codex.setup(input).homeFiles['.codex/config.toml']).not.toContain('model_catalog_json');
    const setup = codex.setup({ ...input, catalog: '{"models":[]}' });
    expect(setup.homeFiles['.codex/bakeoff-model-catalog.json']).toBe('{"models":[]}');
    expect(setup.homeFiles['.codex/config.toml']).toContain('model_catalog_json = "/home/a/.codex/bakeoff-model-catalog.json"');
  });
});
