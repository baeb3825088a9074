import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseUsage } from './parse-usage.js';
import { sseEvents } from '../proxy/proxy-test-kit.test-support.js';
import type { RequestUsage, WireFormat } from '../types.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/wire/', import.meta.url));
const read = (format: WireFormat, file: string): string => readFileSync(`${fixtures}${format}/${file}`, 'utf8');
const parseFixture = (format: WireFormat, file: string) =>
  parseUsage(format, read(format, file), { streamed: file.endsWith('.sse') });

type Counts = Omit<RequestUsage, 'model' | 'costUsd'> & Partial<Pick<RequestUsage, 'model' | 'costUsd'>>;
const usage = (c: Counts): RequestUsage => ({ model: null, costUsd: null, ...c });

describe('parseUsage on golden fixtures', () => {
  it.each<[WireFormat, string, RequestUsage]>([
    // Anthropic: input = uncached + cache read + cache write; output from the last message_delta.
    ['anthropic-messages', 'streamed-tool-turn.sse',
      usage({ inputTokens: 1111 + 222 + 33, cacheReadTokens: 222, cacheWriteTokens: 33, outputTokens: 44, reasoningTokens: 5, model: 'claude-sonnet-4-5' })],
    ['anthropic-messages', 'streamed-cache-heavy.sse',
      usage({ inputTokens: 2310, cacheReadTokens: 2000, cacheWriteTokens: 300, outputTokens: 512, reasoningTokens: 0, model: 'claude-opus-4-5' })],
    ['anthropic-messages', 'non-streamed.json',
      usage({ inputTokens: 2310, cacheReadTokens: 2000, cacheWriteTokens: 300, outputTokens: 77, reasoningTokens: 0, model: 'claude-haiku-4-5' })],
    // OpenAI: input_tokens / prompt_tokens already include cached; output includes reasoning.
    ['openai-responses', 'streamed-tool-turn.sse',
      usage({ inputTokens: 1111, cacheReadTokens: 222, cacheWriteTokens: 0, outputTokens: 44, reasoningTokens: 5, model: 'gpt-5.5' })],
    ['openai-responses', 'non-streamed.json',
      usage({ inputTokens: 1234, cacheReadTokens: 567, cacheWriteTokens: 0, outputTokens: 89, reasoningTokens: 7, model: 'gpt-5.5-2026-10-01' })],
    ['openai-chat', 'streamed-include-usage.sse',
      usage({ inputTokens: 1111, cacheReadTokens: 222, cacheWriteTokens: 0, outputTokens: 44, reasoningTokens: 5, model: 'gpt-5' })],
    ['openai-chat', 'openrouter-streamed.sse',
      usage({ inputTokens: 2310, cacheReadTokens: 2000, cacheWriteTokens: 300, outputTokens: 120, reasoningTokens: 40, model: 'anthropic/claude-sonnet-4.5', costUsd: 0.002553 })],
    ['openai-chat', 'non-streamed.json',
      usage({ inputTokens: 1234, cacheReadTokens: 567, cacheWriteTokens: 0, outputTokens: 89, reasoningTokens: 7, model: 'gpt-5-2025-08-07' })],
    // Gemini: candidatesTokenCount excludes thoughts, so output = candidates + thoughts.
    ['gemini-generate', 'streamed-thoughts.sse',
      usage({ inputTokens: 1234, cacheReadTokens: 567, cacheWriteTokens: 0, outputTokens: 89 + 7, reasoningTokens: 7, model: 'gemini-2.5-pro' })],
    ['gemini-generate', 'streamed-function-call.sse',
      usage({ inputTokens: 1111, cacheReadTokens: 222, cacheWriteTokens: 0, outputTokens: 44 + 5, reasoningTokens: 5, model: 'gemini-2.5-pro' })],
    ['gemini-generate', 'non-streamed.json',
      usage({ inputTokens: 812, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 19 + 32, reasoningTokens: 32, model: 'gemini-3.5-flash-lite' })],
  ])('%s %s gives the exact normalized counts', (format, file, expected) => {
    const result = parseFixture(format, file);
    expect(result).toEqual({ usage: expected, problems: [], missingFinalEvent: null, malformedPayloads: 0 });
  });

  it.each<[WireFormat, string, RegExp]>([
    ['anthropic-messages', 'truncated.sse', /no message_delta/],
    ['openai-responses', 'truncated.sse', /no response\.completed/],
    ['openai-chat', 'no-usage.sse', /include_usage/],
    ['gemini-generate', 'truncated.sse', /finishReason/],
  ])('%s %s has no usage and says why', (format, file, why) => {
    const result = parseFixture(format, file);
    expect(result.usage).toBeNull();
    expect(result.problems.join('\n')).toMatch(why);
  });

  it('reports a truncated final line as malformed JSON instead of throwing', () => {
    const { problems } = parseFixture('anthropic-messages', 'truncated.sse');
    expect(problems).toContainEqual(expect.stringMatching(/^line 8: malformed JSON/));
  });

  it('reports an Anthropic error event and gives no usage', () => {
    const result = parseFixture('anthropic-messages', 'error-mid-stream.sse');
    expect(result.usage).toBeNull();
    expect(result.problems).toContain('line 5: API error: overloaded_error: Overloaded');
  });

  it('keeps the usage of a failed Responses stream and reports the failure', () => {
    const result = parseFixture('openai-responses', 'failed.sse');
    expect(result.usage).toMatchObject({ inputTokens: 900, outputTokens: 3 });
    expect(result.problems).toEqual(['line 5: response failed: The model failed.']);
  });
});

describe('parseUsage counts the web searches an open-web answer reports (billed apart from tokens)', () => {
  it('reads Anthropic\'s usage.server_tool_use.web_search_requests', () => {
    const body = { type: 'message', model: 'm', content: [], usage: { input_tokens: 10, output_tokens: 2, server_tool_use: { web_search_requests: 3 } } };
    expect(parseUsage('anthropic-messages', JSON.stringify(body), { streamed: false }).usage).toMatchObject({ inputTokens: 10, webSearches: 3 });
  });

  it('counts the web_search_call items of a Responses answer, and none in an ordinary one', () => {
    const body = (output: unknown[]) => JSON.stringify({ object: 'response', status: 'completed', model: 'm', output, usage: { input_tokens: 10, output_tokens: 2 } });
    expect(parseUsage('openai-responses', body([{ type: 'web_search_call' }, { type: 'web_search_call' }, { type: 'message' }]), { streamed: false }).usage).toMatchObject({ webSearches: 2 });
    expect(parseUsage('openai-responses', body([{ type: 'message' }]), { streamed: false }).usage).not.toHaveProperty('webSearches');
  });
});

describe('parseUsage tells a stream cut before its final event', () => {
  // Golden streams, cut just before the event that ends them: everything before it arrived whole.
  it.each<[WireFormat, string, RegExp, string]>([
    ['anthropic-messages', 'streamed-tool-turn.sse', /^event: message_stop/m, 'message_stop'],
    ['anthropic-messages', 'streamed-cache-heavy.sse', /^event: message_stop/m, 'message_stop'],
    ['openai-responses', 'streamed-tool-turn.sse', /^event: response\.completed/m, 'response.completed (or .incomplete / .failed)'],
    ['openai-responses', 'failed.sse', /^event: response\.failed/m, 'response.completed (or .incomplete / .failed)'],
    ['openai-chat', 'streamed-include-usage.sse', /"finish_reason":"tool_calls"/, 'data: [DONE] (or a chunk with a finish_reason)'],
    ['openai-chat', 'openrouter-streamed.sse', /"finish_reason":"(stop|tool_calls)"/, 'data: [DONE] (or a chunk with a finish_reason)'],
    ['gemini-generate', 'streamed-thoughts.sse', /"finishReason"/, 'a chunk with a finishReason'],
  ])('%s %s without its final event lacks %s', (format, file, final, missing) => {
    const events = sseEvents(read(format, file));
    const cut = events.slice(0, events.findIndex((e) => final.test(e))).join('');
    expect(cut.length).toBeGreaterThan(0);
    const result = parseUsage(format, cut, { streamed: true });
    expect(result).toMatchObject({ missingFinalEvent: missing, malformedPayloads: 0 });
  });

  it.each<[WireFormat, string]>([
    ['anthropic-messages', 'truncated.sse'],
    ['openai-responses', 'truncated.sse'],
    ['gemini-generate', 'truncated.sse'],
  ])('%s %s, cut in the middle of a line, is a cut stream, not a malformed one', (format, file) => {
    const result = parseFixture(format, file);
    expect(result.missingFinalEvent).not.toBeNull();
    expect(result.malformedPayloads).toBe(0);
  });

  it('keeps the usage of an Anthropic stream that lost only its message_stop', () => {
    const events = sseEvents(read('anthropic-messages', 'streamed-tool-turn.sse'));
    const result = parseUsage('anthropic-messages', events.slice(0, -1).join(''), { streamed: true });
    expect(result).toMatchObject({ usage: { inputTokens: 1366, outputTokens: 44 }, missingFinalEvent: 'message_stop' });
  });

  it('takes a Chat Completions stream that ends with its finish_reason chunk but no [DONE] as whole', () => {
    const body = read('openai-chat', 'streamed-include-usage.sse').replace('data: [DONE]', '');
    expect(parseUsage('openai-chat', body, { streamed: true })).toMatchObject({ missingFinalEvent: null, usage: { inputTokens: 1111 } });
  });

  it('takes a Gemini JSON-array stream without its closing bracket as cut', () => {
    const chunk = read('gemini-generate', 'streamed-function-call.sse').slice('data: '.length).trim();
    const whole = parseUsage('gemini-generate', `[${chunk}]`, { streamed: true });
    const cut = parseUsage('gemini-generate', `[${chunk.slice(0, 40)}`, { streamed: true });
    expect([whole.missingFinalEvent, cut.missingFinalEvent, cut.malformedPayloads]).toEqual([null, 'a chunk with a finishReason', 0]);
  });

  it('counts a whole event that is not JSON as malformed, and never reports a JSON body as cut', () => {
    const garbled = parseUsage('anthropic-messages', 'event: message_start\ndata: {"type":"message_st\n\n', { streamed: true });
    expect(garbled).toMatchObject({ malformedPayloads: 1, missingFinalEvent: 'message_stop' });
    expect(parseUsage('anthropic-messages', '{"type":"mess', { streamed: false }).missingFinalEvent).toBeNull();
  });
});

describe('parseUsage on damaged bodies', () => {
  it('never throws on garbage, for every format and mode', () => {
    const formats: WireFormat[] = ['anthropic-messages', 'openai-responses', 'openai-chat', 'gemini-generate'];
    for (const format of formats) {
      for (const body of ['', 'not json', 'data: {oops\n\n', '[1,2', 'null', '{"usage":"x"}', 'data: null\n\n']) {
        for (const streamed of [true, false]) {
          const result = parseUsage(format, body, { streamed });
          expect(result.usage).toBeNull();
          expect(result.problems.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('skips a malformed line but still reads the usage after it', () => {
    const body = read('openai-chat', 'streamed-include-usage.sse').replace('data: {"id"', 'data: {"id" BROKEN\n\ndata: {"id"');
    const result = parseUsage('openai-chat', body, { streamed: true });
    expect(result.usage?.inputTokens).toBe(1111);
    expect(result.problems).toEqual([expect.stringMatching(/^line 1: malformed JSON/)]);
  });

  it('names the field when a count has the wrong type', () => {
    const body = '{"model":"gpt-5","usage":{"prompt_tokens":"12","completion_tokens":3}}';
    const result = parseUsage('openai-chat', body, { streamed: false });
    expect(result.usage).toBeNull();
    expect(result.problems[0]).toMatch(/^body: usage\.prompt_tokens: /);
  });

  it('reports counts that break the invariants but keeps them', () => {
    const body = '{"model":"m","usage":{"prompt_tokens":10,"prompt_tokens_details":{"cached_tokens":20},"completion_tokens":3}}';
    const result = parseUsage('openai-chat', body, { streamed: false });
    expect(result.usage?.cacheReadTokens).toBe(20);
    expect(result.problems).toEqual(['cache tokens (read 20 + write 0) exceed input tokens 10']);
  });

  it('reads a Gemini stream sent as a JSON array (no alt=sse)', () => {
    const chunk = JSON.parse(read('gemini-generate', 'streamed-function-call.sse').slice('data: '.length)) as unknown;
    const result = parseUsage('gemini-generate', JSON.stringify([chunk]), { streamed: true });
    expect(result.usage?.outputTokens).toBe(49);
  });

  it('flags a Gemini totalTokenCount that does not add up', () => {
    const body = '{"candidates":[{"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":99}}';
    const result = parseUsage('gemini-generate', body, { streamed: false });
    expect(result.usage?.inputTokens).toBe(10);
    expect(result.problems).toEqual(['totalTokenCount 99 differs from input 10 + output 5']);
  });
});
