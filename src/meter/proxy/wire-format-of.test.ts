import { describe, expect, it } from 'vitest';
import { wireFormatOf } from './wire-format-of.js';

describe('wireFormatOf', () => {
  it.each([
    ['/v1/messages', 'anthropic-messages'],
    ['/v1/messages?beta=true', 'anthropic-messages'],
    ['/anthropic/v1/messages/', 'anthropic-messages'],
    ['/v1/responses', 'openai-responses'],
    ['/api/v1/chat/completions', 'openai-chat'],
    ['/v1/chat/completions?foo=1', 'openai-chat'],
    ['/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', 'gemini-generate'],
    ['/v1beta/models/gemini-3.5-flash-lite:generateContent', 'gemini-generate'],
    ['/v1beta/models/gemini-2.5-pro%3AgenerateContent', 'gemini-generate'],
  ] as const)('maps POST %s to %s', (path, format) => {
    expect(wireFormatOf('POST', path)).toBe(format);
    expect(wireFormatOf('post', path)).toBe(format);
  });

  it.each([
    ['POST', '/v1/messages/count_tokens'],
    ['POST', '/v1beta/models/gemini-2.5-pro:countTokens'],
    ['GET', '/v1/models'],
    ['GET', '/v1/messages'],
    ['HEAD', '/api/hello'],
    ['POST', '/v1/completions'],
    ['POST', '/v1/messages-archive'],
  ])('does not meter %s %s', (method, path) => {
    expect(wireFormatOf(method, path)).toBeNull();
  });
});
