import { describe, expect, it } from 'vitest';
import { UserError } from '../../errors.js';
import { describeUpstream, scriptedUpstream, upstreamFor } from './upstream.js';

const env = { ANTHROPIC_API_KEY: 'sk-ant-real', OPENAI_API_KEY: 'sk-oai-real', GEMINI_API_KEY: 'gm-real', OPENROUTER_API_KEY: 'sk-or-real' };

describe('upstreamFor', () => {
  it('sends each wire format of vendor to its maker with that maker\'s auth header', () => {
    const u = upstreamFor('vendor', env);
    expect(u.name).toBe('vendor');
    expect(u.baseUrl('anthropic-messages')).toBe('https://api.anthropic.com');
    expect(u.authHeaders('anthropic-messages')).toEqual({ 'x-api-key': 'sk-ant-real' });
    expect(u.baseUrl('openai-responses')).toBe('https://api.openai.com');
    expect(u.authHeaders('openai-chat')).toEqual({ authorization: 'Bearer sk-oai-real' });
    expect(u.baseUrl('gemini-generate')).toBe('https://generativelanguage.googleapis.com');
    expect(u.authHeaders('gemini-generate')).toEqual({ 'x-goog-api-key': 'gm-real' });
  });

  it('falls back to GOOGLE_API_KEY for Gemini', () => {
    expect(upstreamFor('vendor', { GOOGLE_API_KEY: 'g2' }).authHeaders('gemini-generate')).toEqual({ 'x-goog-api-key': 'g2' });
  });

  it('fails at creation, naming the variable, when a key for a listed format is missing', () => {
    const create = () => upstreamFor('vendor', { OPENAI_API_KEY: 'x' }, { formats: ['openai-responses', 'anthropic-messages'] });
    expect(create).toThrow(UserError);
    expect(create).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => upstreamFor('openrouter', {})).toThrow(/OPENROUTER_API_KEY/);
    expect(() => upstreamFor('vendor', { GEMINI_API_KEY: ' ' }, { formats: ['gemini-generate'] })).toThrow(/GEMINI_API_KEY or GOOGLE_API_KEY/);
  });

  it('fails only the requests of an unlisted format whose key is missing', () => {
    const u = upstreamFor('vendor', { OPENAI_API_KEY: 'x' });
    expect(() => u.authHeaders('anthropic-messages')).toThrow(/ANTHROPIC_API_KEY/);
  });

  it('sends everything to OpenRouter with a Bearer key', () => {
    const u = upstreamFor('openrouter', env);
    expect(u.baseUrl('anthropic-messages')).toBe('https://openrouter.ai/api');
    expect(u.authHeaders('anthropic-messages')).toEqual({ authorization: 'Bearer sk-or-real' });
  });

  it('sends BAKEOFF_UPSTREAM_API_KEY to a base URL in the style of each wire format', () => {
    const u = upstreamFor('https://llm.example.com/proxy/', { BAKEOFF_UPSTREAM_API_KEY: 'k' });
    expect(u.name).toBe('https://llm.example.com/proxy');
    expect(u.baseUrl('openai-chat')).toBe('https://llm.example.com/proxy');
    expect(u.authHeaders('anthropic-messages')).toEqual({ 'x-api-key': 'k' });
    expect(u.authHeaders('openai-responses')).toEqual({ authorization: 'Bearer k' });
    expect(u.authHeaders('gemini-generate')).toEqual({ 'x-goog-api-key': 'k' });
    expect(upstreamFor('http://127.0.0.1:8080', {}).authHeaders('openai-chat')).toEqual({});
  });

  it('refuses unknown specs and base URLs with credentials', () => {
    expect(() => upstreamFor('anthropic', env)).toThrow(/expected vendor, openrouter, an http\(s\):\/\/ base URL or scripted:<script>, received "anthropic"/);
    expect(() => upstreamFor('https://user:pw@llm.example.com', env)).toThrow(/without credentials/);
  });
});

describe('describeUpstream', () => {
  it('names routes and auth header names, never a key', () => {
    const description = describeUpstream(upstreamFor('vendor', { ANTHROPIC_API_KEY: 'sk-ant-real' }));
    expect(JSON.stringify(description)).not.toContain('sk-ant-real');
    expect(description.routes).toContainEqual({ format: 'anthropic-messages', baseUrl: 'https://api.anthropic.com', authHeaders: ['x-api-key'] });
    expect(description.routes).toContainEqual({ format: 'openai-chat', baseUrl: 'https://api.openai.com', authHeaders: null });
  });

  it('describes a scripted upstream', () => {
    expect(describeUpstream(scriptedUpstream('http://127.0.0.1:9/', 'scripted:gold'))).toMatchObject({
      name: 'scripted:gold',
      routes: [{ baseUrl: 'http://127.0.0.1:9', authHeaders: [] }, {}, {}, {}],
    });
  });
});
