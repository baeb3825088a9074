import { describe, expect, it } from 'vitest';
import type { RunJob } from './jobs.js';
import { refusalOf, workerPolicy } from './worker-policy.js';

const sha = 'a'.repeat(64);
const job = (upstream?: string, extra: Partial<RunJob['agentOptions']> = {}, agentSpec = 'pi:anthropic/claude-sonnet-4-5'): RunJob =>
  ({ runId: 'abc', suiteHash: sha, bundleSha256: sha, agentSpec, agentOptions: { cwd: '/x', ...(upstream ? { upstream } : {}), ...extra } }) as unknown as RunJob;

describe('where a worker sends its keys', () => {
  it('sends them to the vendors (and OpenRouter) by default, and runs scripted models, which take no key', () => {
    const policy = workerPolicy([]);
    expect(policy.upstreams).toEqual(['vendor', 'openrouter']);
    for (const upstream of [undefined, 'vendor', 'openrouter', 'scripted:gold', 'scripted:/tmp/replay.json']) expect(refusalOf(job(upstream), 'abc', policy)).toBeNull();
  });

  it('refuses a base URL it was not told to allow, naming it and what is allowed', () => {
    expect(refusalOf(job('http://capture.example:8080'), 'abc', workerPolicy([]))).toBe(
      'it asks for the model API "http://capture.example:8080", which is not one this worker sends its API keys to (allowed here: vendor, openrouter; a worker\'s operator allows more with --allow-upstream)',
    );
  });

  it('allows a base URL its operator named, however its slashes and case are written', () => {
    const policy = workerPolicy(['https://Models.Internal:8443/v1/']);
    expect(policy.upstreams).toEqual(['https://models.internal:8443/v1']);
    expect(refusalOf(job('https://models.internal:8443/v1'), 'abc', policy)).toBeNull();
    expect(refusalOf(job('https://models.internal:8443/v2'), 'abc', policy)).toMatch(/not one this worker sends its API keys to/);
    // only what was named: the vendors are then not allowed unless named too
    expect(refusalOf(job('vendor'), 'abc', policy)).toMatch(/"vendor", which is not one/);
  });

  it('lets agents that open no model API run whatever upstream the bake named (they send no key)', () => {
    for (const spec of ['gold', 'noop', 'command:./agent.sh', 'patch:/p.jsonl']) expect(refusalOf(job('http://capture.example', {}, spec), 'abc', workerPolicy([]))).toBeNull();
  });

  it('refuses a signed job filed under another run id, a digest that is not one, and a subscription login', () => {
    expect(refusalOf({ ...job('vendor'), bundleSha256: '../../etc' }, 'abc', workerPolicy([]))).toMatch(/not a sha256/);
    expect(refusalOf(job('vendor'), 'other', workerPolicy([]))).toMatch(/filed as job "other", but signed for run abc/);
    expect(refusalOf(job('vendor', { auth: 'subscription' }), 'abc', workerPolicy([]))).toMatch(/subscription login/);
  });

  it('refuses an allow-list entry that is not an upstream', () => {
    expect(() => workerPolicy(['http://user:pw@host'])).toThrow(/--allow-upstream: expected vendor, openrouter or an http\(s\):\/\/ base URL without credentials/);
    expect(() => workerPolicy(['ftp://x'])).toThrow(/--allow-upstream/);
  });
});
