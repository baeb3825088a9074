import { describe, expect, it } from 'vitest';
import { requestModelOf } from './request-model-of.js';
import { routeFormatOf } from './route-format-of.js';

describe('requestModelOf', () => {
  it.each([
    ['/v1/messages', '{"model":"claude-sonnet-4-5","messages":[{"model":"not-this"}]}', 'claude-sonnet-4-5'],
    ['/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', '{"contents":[]}', 'gemini-2.5-pro'],
    ['/v1beta/models/gemini-2.5-pro%3AgenerateContent', '', 'gemini-2.5-pro'],
    ['/v1/chat/completions', '{"model":"openai/gpt-5"}', 'openai/gpt-5'],
    ['/v1/messages', 'not json', null],
    ['/v1/messages', '{"model":42}', null],
    ['/v1/models', '', null],
  ])('%s %s → %s', (path, body, model) => {
    expect(requestModelOf(path, body)).toBe(model);
  });
});

describe('routeFormatOf', () => {
  it('routes calls that are not generations by path and headers', () => {
    expect(routeFormatOf('POST', '/v1/messages/count_tokens', {})).toBe('anthropic-messages');
    expect(routeFormatOf('GET', '/v1/models', { 'anthropic-version': '2023-06-01' })).toBe('anthropic-messages');
    expect(routeFormatOf('POST', '/v1beta/models/gemini-2.5-pro:countTokens', {})).toBe('gemini-generate');
    expect(routeFormatOf('GET', '/v1beta/models', { 'x-goog-api-key': 'k' })).toBe('gemini-generate');
    expect(routeFormatOf('GET', '/v1/models', { authorization: 'Bearer k' })).toBe('openai-chat');
    expect(routeFormatOf('GET', '/health', {})).toBeNull();
  });
});
