import { describe, expect, it } from 'vitest';
import { targetUrl, withoutKeyParam } from './target-url.js';

describe('targetUrl', () => {
  it.each([
    ['https://api.anthropic.com', '/v1/messages?beta=true', 'https://api.anthropic.com/v1/messages?beta=true'],
    ['https://openrouter.ai/api', '/v1/chat/completions', 'https://openrouter.ai/api/v1/chat/completions'],
    ['https://openrouter.ai/api/', '/api/v1/messages', 'https://openrouter.ai/api/v1/messages'],
    ['https://openrouter.ai/api', '/v1/responses', 'https://openrouter.ai/api/v1/responses'],
    ['http://127.0.0.1:5000', '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', 'http://127.0.0.1:5000/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse'],
  ])('joins %s and %s', (base, path, url) => {
    expect(targetUrl(base, path).href).toBe(url);
  });

  it('never lets the client path change the host', () => {
    expect(targetUrl('https://api.anthropic.com', '//evil.example/v1/messages').host).toBe('api.anthropic.com');
    expect(targetUrl('https://api.anthropic.com', '/@evil.example/x').host).toBe('api.anthropic.com');
  });
});

describe('withoutKeyParam', () => {
  it('removes only key=', () => {
    expect(withoutKeyParam('/m:streamGenerateContent?key=abc&alt=sse')).toBe('/m:streamGenerateContent?alt=sse');
    expect(withoutKeyParam('/m:generateContent?key=abc')).toBe('/m:generateContent');
    expect(withoutKeyParam('/v1/messages?beta=true')).toBe('/v1/messages?beta=true');
    expect(withoutKeyParam('/x?monkey=1')).toBe('/x?monkey=1');
  });
});
