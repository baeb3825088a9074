import { describe, expect, it } from 'vitest';
import { parseHarnessSpec } from './harness-spec.js';
import { exampleOf, exampleSpec, HARNESS_NAMES, HARNESSES } from './harnesses/index.js';
import { resolveAgent } from './registry.js';

describe('agent specs <harness>:<model>[@effort]', () => {
  it('reads harness, model and effort; models may hold / and :', () => {
    expect(parseHarnessSpec('claude-code:claude-sonnet-4-5@high')).toEqual({ harness: 'claude-code', model: 'claude-sonnet-4-5', effort: 'high' });
    expect(parseHarnessSpec('pi:anthropic/claude-sonnet-4-5')).toEqual({ harness: 'pi', model: 'anthropic/claude-sonnet-4-5', effort: null });
    expect(parseHarnessSpec('opencode:openrouter/openai/gpt-5:free@lowest')).toEqual({ harness: 'opencode', model: 'openrouter/openai/gpt-5:free', effort: 'lowest' });
  });

  it('is not a harness spec for builtins and other kinds, and says what is wrong with a broken one', () => {
    expect(parseHarnessSpec('gold')).toBeNull();
    expect(parseHarnessSpec('command:./x.sh')).toBeNull();
    expect(parseHarnessSpec('codex:')).toEqual({ error: expect.stringContaining('expected a model id') });
    expect(parseHarnessSpec('codex:gpt-5.5@')).toEqual({ error: expect.stringContaining('expected an effort level') });
  });

  it('takes every registered harness, each with its example model and effort', () => {
    for (const name of HARNESS_NAMES) {
      const { model, effort } = exampleOf(HARNESSES[name]);
      expect(parseHarnessSpec(exampleSpec(name))).toEqual({ harness: name, model, effort });
    }
  });

  it('says what belongs after "command:" and "patch:" when nothing follows the colon', async () => {
    await expect(resolveAgent('command:', { cwd: '/' })).rejects.toThrow('--agent "command:": expected a shell command after "command:", e.g. command:./my-agent.sh; received nothing after the colon');
    await expect(resolveAgent('patch:  ', { cwd: '/' })).rejects.toThrow('expected a predictions file after "patch:"');
  });

  it('names the registered harnesses, and the nearest one, for an unknown harness', async () => {
    const names = HARNESS_NAMES.join(', ');
    await expect(resolveAgent('aider:gpt-5', { cwd: '/' })).rejects.toThrow(`received an unknown harness "aider" (a harness is one of ${names})`);
    await expect(resolveAgent('claude-cod:opus', { cwd: '/' })).rejects.toThrow(`(a harness is one of ${names} (did you mean "claude-code"?))`);
  });
});
