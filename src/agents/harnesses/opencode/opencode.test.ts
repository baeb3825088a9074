import { describe, expect, it } from 'vitest';
import { capturedStream, homeJsonOf, setupInputOf, STUB_PRICES, stubSuccessReport } from '../captured-streams.test-support.js';
import { opencode } from './index.js';

const reader = await opencode.stream();

const fixture = (file: string): string => capturedStream('opencode', file);

describe('parse on streams captured from opencode 1.18.33', () => {
  it('sums step_finish tokens, adding the cache to the input and the reasoning back to the output', () => {
    expect(reader.parse(fixture('anthropic-success.jsonl'), 0)).toEqual(stubSuccessReport({
      tokens: { inputTokens: 2345 + 789 + 41, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: 12 },
      costUsd: expect.closeTo(0.00942045, 10),
      turns: 2,
    }));
  });

  it('gets the same totals over OpenAI Responses and Chat Completions', () => {
    const responses = reader.parse(fixture('openai-success.jsonl'), 0);
    expect(responses.tokens).toEqual({ inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: 12 });
    const chat = reader.parse(fixture('chat-success.jsonl'), 0);
    // The stub sends no cache writes over Chat Completions.
    expect(chat.tokens).toEqual({ inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 0, outputTokens: 133, reasoningTokens: 12 });
  });

  it('reads the notes capture (§5.4) the same way', () => {
    const report = reader.parse(fixture('notes-success.jsonl'), 0);
    expect(report.tokens).toEqual({ inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 0, outputTokens: 133, reasoningTokens: 12 });
    expect(report.costUsd).toBeCloseTo(0.0068997, 10);
    expect(report.finalMessage).toBe('Done: created hello.txt.');
  });

  it('fails on the error event OpenCode prints after its own retries', () => {
    const report = reader.parse(fixture('failure.jsonl'), 1);
    expect(report).toMatchObject({ failed: true, tokens: null, turns: 0, finalMessage: null });
    expect(report.errors).toEqual([expect.stringMatching(/^Internal Server Error/)]);
  });
});

describe('efforts (OpenCode variants)', () => {
  it.each([
    ['anthropic/claude-sonnet-4-5', ['high', 'max']],
    ['anthropic/claude-opus-4-5', ['low', 'medium', 'high']],
    ['anthropic/claude-sonnet-4-6', ['low', 'medium', 'high', 'max']],
    ['anthropic/claude-opus-4-7', ['low', 'medium', 'high', 'xhigh', 'max']],
    ['openai/gpt-5', ['minimal', 'low', 'medium', 'high']],
    ['openai/gpt-5.1', ['none', 'low', 'medium', 'high']],
    ['openai/gpt-5.5', ['none', 'low', 'medium', 'high', 'xhigh']],
    ['openai/gpt-5.1-codex', ['low', 'medium', 'high']],
    ['openai/gpt-5.3-codex', ['none', 'low', 'medium', 'high', 'xhigh']],
    ['openai/gpt-5-pro', ['high']],
    ['openai/o3', ['low', 'medium', 'high']],
    ['deepseek/deepseek-v4', ['low', 'medium', 'high', 'max']],
    ['openrouter/qwen/qwen3-coder', []],
    ['zai/glm-4.6', []],
    ['acme/acme-1', ['low', 'medium', 'high']],
  ])('lists %s as %j', (model, variants) => {
    expect(opencode.efforts!(model)).toEqual(variants);
  });
});

describe('setup', () => {
  const input = setupInputOf({ installDir: '/opt/oc', model: 'anthropic/claude-sonnet-4-5', effort: 'high', prices: STUB_PRICES });
  const config = homeJsonOf(opencode, input, '.config/opencode/opencode.json');

  it('runs `run --format json` in the workspace with a fixed title, auto-approval and the variant', () => {
    const setup = opencode.setup(input);
    expect(setup.argv).toEqual([
      '/opt/oc/node_modules/.bin/opencode', 'run', '--format', 'json', '--title', 'bakeoff', '--auto', '--dir', '/w',
      '--model', 'anthropic/claude-sonnet-4-5', '--variant', 'high',
    ]);
    // on stdin: as arguments, `run` would quote words with spaces and turn `4180` into a number
    expect(setup.stdin).toBe('Do it');
    expect(setup.env).toEqual({
      OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1', BAKEOFF_API_KEY: 'k',
    });
  });

  it('pre-seeds the plugin dir so OpenCode does not npm-install into it', () => {
    expect(Object.keys(opencode.setup(input).homeFiles).sort()).toEqual([
      '.config/opencode/node_modules/.keep', '.config/opencode/opencode.json', '.config/opencode/package-lock.json', '.config/opencode/package.json',
    ]);
  });

  it('keeps the provider id, picks the SDK package by prefix and merges the model with prices and reasoning', () => {
    expect(config({})).toEqual({
      autoupdate: false,
      share: 'disabled',
      // the closed web: OpenCode's own web tools are denied
      permission: { codesearch: 'deny', webfetch: 'deny', websearch: 'deny' },
      provider: {
        anthropic: {
          npm: '@ai-sdk/anthropic',
          options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: '{env:BAKEOFF_API_KEY}' },
          models: { 'claude-sonnet-4-5': { reasoning: true, cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } } },
        },
      },
    });
    expect(config({ model: 'openai/gpt-5.5', effort: null, prices: null })).toMatchObject({
      provider: { openai: { npm: '@ai-sdk/openai', models: { 'gpt-5.5': {} } } },
    });
    expect(config({ model: 'openrouter/qwen/qwen3-coder', effort: null })).toMatchObject({
      provider: { openrouter: { npm: '@ai-sdk/openai-compatible', models: { 'qwen/qwen3-coder': { cost: { input: 3 } } } } },
    });
  });
});
