import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAgentsFile } from './agents-file.js';
import { HARNESS_NAMES } from './harnesses/index.js';
import { resolveAgents } from './resolve-agents.js';

async function file(text: string): Promise<string> {
  const f = path.join(await mkdtemp(path.join(os.tmpdir(), 'agents-file-')), 'agents.yaml');
  await writeFile(f, text);
  return f;
}

describe('agents file', () => {
  it('reads named agents with settings', async () => {
    const f = await file('agents:\n  sonnet-high: { harness: claude-code, model: claude-sonnet-4-5, effort: high }\n  gpt: { harness: codex, model: gpt-5.5, args: [--foo], env: { RUST_LOG: warn }, auth: subscription }\n');
    expect(await readAgentsFile(f)).toEqual([
      { name: 'sonnet-high', spec: 'claude-code:claude-sonnet-4-5@high', args: [], env: {}, auth: 'api' },
      { name: 'gpt', spec: 'codex:gpt-5.5', args: ['--foo'], env: { RUST_LOG: 'warn' }, auth: 'subscription' },
    ]);
    await expect(readAgentsFile(await file('agents:\n  a: { harness: codex, model: gpt-5.5, auth: plan }\n'))).rejects.toThrow(/agents\.a\.auth/);
  });

  it('names the file, field, expectation and what arrived', async () => {
    const f = await file('agents:\n  a: { harness: codex, modle: gpt-5.5 }\n');
    await expect(readAgentsFile(f)).rejects.toThrow(/agents\.a\.modle.*did you mean "model"/s);
    const g = await file('agents:\n  a: { harness: codex, model: gpt-5.5, env: { OPENAI_API_KEY: sk-x } }\n');
    await expect(readAgentsFile(g)).rejects.toThrow(/agents\.a\.env\.OPENAI_API_KEY.*no secrets/s);
    const settings = await file('agents:\n  a: { harness: claude-code, model: m, env: { MAX_THINKING_TOKENS: "1024" } }\n');
    expect((await readAgentsFile(settings))[0]!.env).toEqual({ MAX_THINKING_TOKENS: '1024' });
  });

  it('names the registered harnesses, and the nearest, for an unknown harness (before any upstream opens)', async () => {
    const f = await file('agents:\n  a: { harness: gemini, model: gemini-2.5-pro }\n');
    const options = { cwd: '/', forbiddenRoots: [], agentsFile: f, openUpstream: () => Promise.reject(new Error('no upstream')), priceOf: () => null, idleTimeoutMs: 1000 };
    await expect(resolveAgents([], options)).rejects.toThrow(`agents.a.harness: expected one of ${HARNESS_NAMES.join(', ')} (did you mean "gemini-cli"?), received "gemini"`);
  });
});
