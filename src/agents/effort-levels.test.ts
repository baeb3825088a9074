import { describe, expect, it } from 'vitest';
import { orderLevels, resolveLevel, type LevelSource } from './effort-levels.js';

function source(levels: Readonly<Record<string, readonly string[]>>): LevelSource {
  return { kind: 'cli', source: 'a test catalog', text: '{}', digest: 'd1', levels: (model) => levels[model] ?? null };
}

describe('effort levels resolved from a catalog', () => {
  const catalog = source({ 'gpt-x': ['high', 'medium', 'xhigh'], 'no-levels': [] });
  const spec = (effort: string | null, model = 'gpt-x') => ({ harness: 'codex', model, effort });

  it('orders levels by the canonical order, not by list position', () => {
    expect(orderLevels(['high', 'low', 'ultra', 'minimal'])).toEqual(['minimal', 'low', 'high', 'ultra']);
    expect(orderLevels(['off', 'high', 'custom'])).toEqual(['off', 'high', 'custom']);
  });

  it('resolves @lowest and @highest, keeps a listed level, and records the catalog', () => {
    expect(resolveLevel(spec('lowest'), catalog)).toEqual({ effort: 'medium', ref: { source: 'a test catalog', digest: 'd1', requested: 'lowest', resolved: 'medium' } });
    expect(resolveLevel(spec('highest'), catalog)).toMatchObject({ effort: 'xhigh' });
    expect(resolveLevel(spec('high'), catalog)).toMatchObject({ effort: 'high' });
    expect(resolveLevel(spec(null), catalog)).toMatchObject({ effort: null, ref: { requested: null, resolved: null } });
    expect(resolveLevel(spec('lowest', 'no-levels'), catalog)).toMatchObject({ effort: null });
  });

  it('refuses a level the catalog does not list, naming the valid ones, and a model it lacks', () => {
    expect(resolveLevel(spec('low'), catalog)).toEqual({
      error: null,
      expected: 'one of medium, high, xhigh, lowest or highest (from a test catalog)',
    });
    expect(resolveLevel(spec('lowest', 'gpt-missing'), catalog)).toMatchObject({ error: expect.stringContaining('has no model "gpt-missing"') });
  });
});
