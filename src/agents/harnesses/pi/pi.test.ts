import { describe, expect, it } from 'vitest';
import { capturedStream, homeJsonOf, setupInputOf, STUB_PRICES, stubSuccessReport } from '../captured-streams.test-support.js';
import { UserError } from '../../../errors.js';
import { pi } from './index.js';

const reader = await pi.stream();

const fixture = (file: string): string => capturedStream('pi', file);

describe('parse on streams captured from pi 0.73.1', () => {
  it('sums the assistant message_end usage and adds cache reads and writes to the uncached input', () => {
    expect(reader.parse(fixture('anthropic-success.jsonl'), 0)).toEqual(stubSuccessReport({
      tokens: { inputTokens: 2345 + 789 + 41, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: null },
      // 2345 × $3 + 133 × $15 + 789 × $0.30 + 41 × $3.75 per MTok: the prices given to setup.
      costUsd: expect.closeTo(0.00942045, 10),
      turns: 2,
      model: 'claude-sonnet-4-5',
    }));
  });

  it('gets the same input over OpenAI Responses, where pi itself took the cached tokens out', () => {
    const report = reader.parse(fixture('openai-success.jsonl'), 0);
    // pi does not read cache writes from Responses usage: they stay inside its "uncached" input.
    expect(report.tokens).toEqual({ inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 0, outputTokens: 133, reasoningTokens: null });
    expect(report.model).toBe('gpt-5.5');
  });

  it('reads the notes capture (§5.3) the same way', () => {
    const report = reader.parse(fixture('notes-success.jsonl'), 0);
    expect(report.tokens).toEqual({ inputTokens: 3175, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: null });
    expect(report.costUsd).toBeCloseTo(0.00942045, 10);
  });

  it('calls a session failed from the stream although pi exited 0', () => {
    const report = reader.parse(fixture('failure.jsonl'), 0);
    expect(report.failed).toBe(true);
    expect(report.finalMessage).toBeNull();
    expect(report.turns).toBe(0);
    // One error per attempt (first try + 3 auto retries), then the auto_retry_end verdict.
    expect(report.errors).toHaveLength(5);
    expect(report.errors.every((e) => e.startsWith('500 '))).toBe(true);
  });

  it('does not fail a session whose retry succeeded', () => {
    const failedTry = { type: 'message_end', message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: 'overloaded', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } };
    const retried = { type: 'message_end', message: { role: 'assistant', content: [{ type: 'text', text: 'fine' }], stopReason: 'stop', model: 'm', usage: { input: 3, output: 2, cacheRead: 1, cacheWrite: 0 } } };
    const stdout = [failedTry, { type: 'auto_retry_start', attempt: 1 }, retried, { type: 'auto_retry_end', success: true }].map((l) => JSON.stringify(l)).join('\n');
    const report = reader.parse(stdout, 0);
    expect(report).toMatchObject({ failed: false, finalMessage: 'fine', turns: 1, errors: ['overloaded'] });
    expect(report.tokens?.inputTokens).toBe(4);
  });
});

describe('setup', () => {
  const input = setupInputOf({ installDir: '/opt/pi', model: 'anthropic/claude-sonnet-4-5', effort: 'high', prices: STUB_PRICES });
  const modelsJson = homeJsonOf(pi, input, '.pi/agent/models.json');

  it('runs print mode with JSON events, the provider, the model and the thinking level', () => {
    const setup = pi.setup(input);
    expect(setup.argv).toEqual([
      '/opt/pi/node_modules/.bin/pi', '-p', '--mode', 'json', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--thinking', 'high',
    ]);
    expect(setup.stdin).toBe('Do it');
    expect(setup.env).toMatchObject({ PI_CODING_AGENT_DIR: '/home/a/.pi/agent', PI_OFFLINE: '1', PI_TELEMETRY: '0', BAKEOFF_API_KEY: 'k' });
  });

  it('redirects the built-in anthropic provider and puts the list prices on the model', () => {
    expect(modelsJson({})).toEqual({
      providers: {
        anthropic: {
          baseUrl: 'http://127.0.0.1:9',
          apiKey: 'BAKEOFF_API_KEY',
          modelOverrides: { 'claude-sonnet-4-5': { cost: { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 } } },
        },
      },
    });
  });

  it('sends openai models to <base>/v1 (Responses) and other providers through Chat Completions', () => {
    expect(modelsJson({ model: 'openai/gpt-5.5', prices: null })).toEqual({ providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'BAKEOFF_API_KEY' } } });
    expect(modelsJson({ model: 'openrouter/qwen/qwen3-coder', prices: null })).toEqual({
      providers: { openrouter: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'BAKEOFF_API_KEY' } },
    });
    expect(modelsJson({ model: 'acme/acme-1', prices: null })).toEqual({
      providers: { acme: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', apiKey: 'BAKEOFF_API_KEY', models: [{ id: 'acme-1', reasoning: true }] } },
    });
    expect(pi.wireFormat('anthropic/claude-sonnet-4-5')).toBe('anthropic-messages');
    expect(pi.wireFormat('openai/gpt-5.5')).toBe('openai-responses');
    expect(pi.wireFormat('acme/acme-1')).toBe('openai-chat');
  });

  it('sends the prompt on stdin, and the trailing whitespace pi trims off stdin as its message argument', () => {
    const argv = pi.setup(input).argv;
    const setup = pi.setup({ ...input, prompt: '@README.md is wrong\n- and this\n\n' });
    expect(setup.stdin).toBe('@README.md is wrong\n- and this\n\n');
    expect(setup.argv).toEqual([...argv, '\n\n']);
  });

  it('asks for <provider>/<model>', () => {
    expect(() => pi.setup({ ...input, model: 'claude-sonnet-4-5' })).toThrow(UserError);
  });

  it('lists all six thinking levels, off first', () => {
    expect(pi.efforts!('anthropic/claude-sonnet-4-5')).toEqual(['off', 'minimal', 'low', 'medium', 'high', 'xhigh']);
  });
});
