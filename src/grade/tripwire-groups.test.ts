import { describe, expect, it } from 'vitest';
import { findTestCases, type Random } from '../runners/index.js';
import { seededRandom as seeded } from './seeded-random.js';
import { drawGroups, type GroupFile } from './tripwire-groups.js';

const JS = [
  "const { formatBytes } = require('../src');",
  '',
  "describe('rollover', () => {",
  "  test('just under 1 MiB is 1 MiB', () => {",
  "    expect(formatBytes(1048575)).toBe('1 MiB');",
  '  });',
  "  test('bytes never roll over', () => {",
  "    expect(formatBytes(1023)).toBe('1023 B');",
  '  });',
  "  test('twice', () => { expect(f(1)).toBe('x'); });",
  "  test('twice', () => { expect(f(2)).toBe('y'); });",
  "  test('repeats another', () => { expect(formatBytes(1023)).toBe('1023 B'); });",
  '});',
  '',
].join('\n');

async function jsFile(text = JS): Promise<GroupFile> {
  const cases = await findTestCases('__tests__/x.test.js', text);
  return { file: '__tests__/x.test.js', text, cases: cases!, ids: (p, n) => [`__tests__/x.test.js::${[...p, n].join(' > ')}`], names: { style: 'title', prefix: '' } };
}

const ID = '__tests__/x.test.js::rollover > just under 1 MiB is 1 MiB';

describe('drawGroups', () => {
  it('puts the test and k copies in its place, in random order, under fresh names; one expects the real value', async () => {
    const file = await jsFile();
    const realAt = new Set<number>();
    for (let seed = 1; seed <= 40; seed++) {
      const drawn = drawGroups([file], { templateIds: [ID, '__tests__/x.test.js::rollover > twice'], random: seeded(seed) });
      expect(drawn.eligible).toEqual([ID]);
      expect(drawn.groups).toHaveLength(1);
      const group = drawn.groups[0]!;
      expect(group.template).toBe(ID);
      expect(group.copies.length).toBeGreaterThanOrEqual(2);
      const text = drawn.texts.get('__tests__/x.test.js')!;
      // the whole file still parses, the other tests are untouched
      const again = await findTestCases('__tests__/x.test.js', text);
      expect(again).not.toBeNull();
      expect(text).toContain("test('bytes never roll over', () => {");
      expect(text).not.toContain('just under 1 MiB is 1 MiB');
      const members = again!.cases.filter((c) => c.sites[0]?.actual === 'formatBytes(1048575)');
      expect(members).toHaveLength(group.copies.length + 1);
      const titles = members.map((m) => `__tests__/x.test.js::rollover > ${m.name}`);
      expect(new Set(titles)).toEqual(new Set([group.real, ...group.copies]));
      const expectedValues = members.map((m) => m.sites[0]!.leaves[0]!.raw);
      expect(new Set(expectedValues).size).toBe(expectedValues.length);
      const real = members.findIndex((m) => `__tests__/x.test.js::rollover > ${m.name}` === group.real);
      expect(expectedValues[real]).toBe("'1 MiB'");
      realAt.add(real);
      // names read like the file's own: words of its titles
      for (const m of members) expect(m.name).toMatch(/^[a-z0-9]+( [a-z0-9]+)+$/);
    }
    // the test itself is not always in the same place among its copies
    expect(realAt.size).toBeGreaterThan(2);
  });

  it('makes no group of a test the lock does not name, of a title used twice, or of an assertion another test repeats', async () => {
    const file = await jsFile();
    const drawn = drawGroups([file], {
      templateIds: ['__tests__/x.test.js::rollover > twice', '__tests__/x.test.js::rollover > bytes never roll over', '__tests__/x.test.js::rollover > repeats another'],
      random: seeded(3),
    });
    expect(drawn.groups).toEqual([]);
    expect(drawn.texts.size).toBe(0);
  });

  it('maps parametrized Python ids to the renamed function, case by case, the cases that pass before the fix too', async () => {
    const text = ['import pytest', '', '@pytest.mark.parametrize("x", [1, 2])', 'def test_total(x):', '    assert total(x) == "EUR 0.13"', ''].join('\n');
    const cases = await findTestCases('tests/test_t.py', text);
    const file: GroupFile = { file: 'tests/test_t.py', text, cases: cases!, ids: (p, n) => [`tests/test_t.py::${[...p, n].join('::')}`], names: { style: 'identifier', prefix: 'test_' } };
    const drawn = drawGroups([file], { templateIds: ['tests/test_t.py::test_total[1]'], knownIds: ['tests/test_t.py::test_total[2]', 'tests/test_t.py::test_other'], random: seeded(7) });
    const byTemplate = new Map(drawn.groups.map((g) => [g.template, g] as const));
    expect([...byTemplate.keys()].sort()).toEqual(['tests/test_t.py::test_total[1]', 'tests/test_t.py::test_total[2]']);
    const [one, two] = [byTemplate.get('tests/test_t.py::test_total[1]'), byTemplate.get('tests/test_t.py::test_total[2]')];
    expect(one!.real).toMatch(/^tests\/test_t\.py::test_[a-z0-9_]+\[1\]$/);
    expect(two!.real).toBe(one!.real.replace('[1]', '[2]'));
    const out = drawn.texts.get('tests/test_t.py')!;
    // every copy keeps its decorator
    expect(out.match(/@pytest\.mark\.parametrize/g)).toHaveLength(one!.copies.length + 1);
    expect(await findTestCases('tests/test_t.py', out)).not.toBeNull();
    // a case the report numbers as a repeat cannot be mapped back: no group
    const repeated = drawGroups([file], { templateIds: ['tests/test_t.py::test_total[1]'], knownIds: ['tests/test_t.py::test_total[1] #2'], random: seeded(7) });
    expect(repeated.groups).toEqual([]);
  });
});
