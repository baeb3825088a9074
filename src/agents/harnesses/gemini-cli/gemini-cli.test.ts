import { describe, expect, it } from 'vitest';
import { capturedStream, homeJsonOf, setupInputOf, stubSuccessReport } from '../captured-streams.test-support.js';
import { UserError } from '../../../errors.js';
import type { SetupInput } from '../types.js';
import { geminiCli } from './index.js';

const reader = await geminiCli.stream();

const fixture = (file: string): string => capturedStream('gemini-cli', file);

describe('parse on streams captured from gemini 0.61.0', () => {
  it('takes result.stats and derives the thoughts from the total', () => {
    expect(reader.parse(fixture('success.jsonl'), 0)).toEqual(stubSuccessReport({
      // total 2490 = input 2345 + candidates 133 + thoughts 12; output counts the thoughts.
      tokens: { inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: null, outputTokens: 133 + 12, reasoningTokens: 12 },
      model: 'gemini-2.5-pro',
    }));
  });

  it('reads the notes capture (§5.5) the same way', () => {
    const report = reader.parse(fixture('notes-success.jsonl'), 0);
    expect(report.tokens).toEqual({ inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: null, outputTokens: 145, reasoningTokens: 12 });
    expect(report.finalMessage).toBe('Done: created hello.txt.');
  });

  it('names the model the CLI ran, not the one it was asked for', () => {
    const stdout = fixture('swapped-model.jsonl');
    expect(stdout).toContain('"type":"init"');
    expect(stdout).toContain('"model":"gemini-3-pro-preview"');
    expect(reader.parse(stdout, 0)).toMatchObject({ model: 'gemini-3.1-pro-preview', failed: false });
  });

  it('fails on result status error', () => {
    const report = reader.parse(fixture('failure.jsonl'), 244);
    expect(report).toMatchObject({ failed: true, finalMessage: null, model: 'gemini-2.5-pro' });
    expect(report.errors).toEqual([expect.stringMatching(/^\[API Error:/)]);
  });

  it('fails on an error event of severity error but not on a warning', () => {
    const result = { type: 'result', status: 'success', stats: { total_tokens: 3, input_tokens: 2, output_tokens: 1, cached: 0 } };
    const event = (severity: string) => ({ type: 'error', severity, message: `${severity} event` });
    const stream = (severity: string) => [event(severity), result].map((l) => JSON.stringify(l)).join('\n');
    expect(reader.parse(stream('warning'), 0)).toMatchObject({ failed: false, errors: ['warning event'] });
    expect(reader.parse(stream('error'), 0)).toMatchObject({ failed: true, errors: ['error event'] });
  });
});

describe('efforts and their thinking settings', () => {
  const input = setupInputOf({ installDir: '/opt/g', model: 'gemini-2.5-pro', effort: 'low' });
  const settingsJson = homeJsonOf(geminiCli, input, '.gemini/settings.json');
  const settings = (overrides: Partial<SetupInput>) => settingsJson(overrides) as { modelConfigs?: unknown } & Record<string, unknown>;

  it('lists budgets for Gemini 2.5 and the API thinking levels for Gemini 3', () => {
    expect(geminiCli.efforts!('gemini-2.5-pro')).toEqual(['low', 'medium', 'high']);
    expect(geminiCli.efforts!('gemini-3-pro-preview')).toEqual(['low', 'high']);
    expect(geminiCli.efforts!('gemini-3.5-flash')).toEqual(['minimal', 'low', 'medium', 'high']);
    expect(geminiCli.efforts!('some-other-model')).toEqual([]);
  });

  it('overrides the thinking budget of a 2.5 model and the thinking level of a 3 model', () => {
    // Matched on the `chat-base` alias, not the id: the CLI runs some ids as others (see parse).
    expect(settings({}).modelConfigs).toEqual({
      overrides: [{ match: { model: 'chat-base' }, modelConfig: { generateContentConfig: { thinkingConfig: { thinkingBudget: 1024 } } } }],
    });
    expect(settings({ model: 'gemini-3-pro-preview', effort: 'high' }).modelConfigs).toEqual({
      overrides: [{ match: { model: 'chat-base' }, modelConfig: { generateContentConfig: { thinkingConfig: { thinkingLevel: 'HIGH' } } } }],
    });
    expect(settings({ effort: null })).not.toHaveProperty('modelConfigs');
  });

  it('refuses an effort the model has no setting for instead of ignoring it', () => {
    expect(() => geminiCli.setup({ ...input, effort: 'xhigh' })).toThrow(UserError);
  });

  it('selects API-key auth, turns folder trust, statistics, telemetry and updates off, and sends the key by env', () => {
    expect(settings({})).toMatchObject({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    });
    const setup = geminiCli.setup(input);
    expect(setup.env).toEqual({ GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9', GEMINI_API_KEY: 'k' });
    expect(setup.argv).toEqual(['/opt/g/node_modules/.bin/gemini', '--prompt=', '--output-format', 'stream-json', '--yolo', '-m', 'gemini-2.5-pro']);
    expect(setup.stdin).toBe('Do it');
  });
});
