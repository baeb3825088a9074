import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findTestCases, getTestRunner, type ReportFormat } from '../runners/index.js';
import { editDistance } from '../runners/tripwire-variants.js';
import type { Random } from '../runners/index.js';
import { groupFileOf } from './place-tripwires.js';
import { seededRandom as seeded } from './seeded-random.js';
import { drawGroups } from './tripwire-groups.js';
import { drawTripwires } from './tripwires.js';

/*
 * The tripwire groups against the ways a saboteur that read bakeoff's source would pick a
 * group's test out of its copies by their form (decision 002): the first or last member, the
 * member whose expected value is the centre of the others, the one whose value the file writes
 * most (or least) often, the one whose name is longest. Drawn many times on the hidden test files
 * of the fixture tasks, each pick must find the test no more often than a blind one does.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES: readonly { readonly file: string; readonly rel: string; readonly format: ReportFormat }[] = [
  { file: 'examples/starter/tasks/csv-multiline-fields/orders/1/hidden/test/multiline.test.mjs', rel: 'test/multiline.test.mjs', format: 'node-test' },
  { file: 'examples/starter/tasks/invoice-half-cent-rounding/orders/1/hidden/tests/test_half_cent.py', rel: 'tests/test_half_cent.py', format: 'pytest' },
  { file: 'examples/starter/tasks/semver-caret-tilde/orders/1/hidden/test/caret-tilde.test.ts', rel: 'test/caret-tilde.test.ts', format: 'vitest' },
  { file: 'examples/starter/tasks/wrap-non-ascii/orders/1/hidden/tests/non_ascii.rs', rel: 'tests/non_ascii.rs', format: 'cargo' },
  { file: 'test/fixtures/tasks/bytes-rollover/orders/1/hidden/__tests__/rollover.test.js', rel: '__tests__/rollover.test.js', format: 'jest' },
  { file: 'test/fixtures/suites/runners/tasks/mocha-slugify/orders/1/hidden/test/slugify.hidden.test.js', rel: 'test/slugify.hidden.test.js', format: 'mocha' },
  { file: 'test/fixtures/suites/runners/tasks/tape-clamp/orders/1/hidden/test/clamp-below.js', rel: 'test/clamp-below.js', format: 'tap' },
  { file: 'test/fixtures/suites/runners/tasks/junit-median/orders/1/hidden/tests/test_median_even.py', rel: 'tests/test_median_even.py', format: 'junit' },
];

/** One group as a saboteur reading the graded file sees it: members in file order. */
interface Seen {
  readonly members: readonly { readonly name: string; readonly value: string; readonly real: boolean }[];
}

/** The graded file as text, and its literals as written. */
interface Graded {
  readonly text: string;
  readonly literals: readonly string[];
}

type Pick = (group: Seen, file: Graded) => number;

/**
 * One seeded generator (mulberry32) for the draw and the picks' coins, so the test gives the same
 * answer every time: with the crypto coin a pick within its bound still went over it about one run
 * in a few hundred (four deviations, eight picks). A seed does not help a broken draw: a pick that
 * finds the test more often than a blind one does so whatever the seed.
 */
let random: Random = seeded(1);

const written = (file: Graded, value: string): number => file.literals.filter((l) => l === value).length;
const inText = (file: Graded, value: string): number => file.text.split(value).length - 1;
const picks: Readonly<Record<string, Pick>> = {
  first: () => 0,
  last: (g) => g.members.length - 1,
  'value at the centre': (g) => argBest(g.members.map((m) => -g.members.reduce((s, o) => s + editDistance(m.value, o.value), 0))),
  'value the file writes most often': (g, f) => argBest(g.members.map((m) => written(f, m.value))),
  'value the file writes least often': (g, f) => argBest(g.members.map((m) => -written(f, m.value))),
  'value most often in the text': (g, f) => argBest(g.members.map((m) => inText(f, m.value))),
  'value least often in the text': (g, f) => argBest(g.members.map((m) => -inText(f, m.value))),
  'longest name': (g) => argBest(g.members.map((m) => m.name.length)),
};

/**
 * Picks known to beat a blind one, and by how much they may (issue 30, open): picking the member
 * whose value the file writes most often finds the real test about 1.25× as often as a blind pick
 * (one run in six of 15 rounds went over four deviations of a blind pick: 200 of 435 groups
 * against 140.8). The gap is measured, not closed: this bound stops it growing unseen.
 */
const KNOWN_EDGE: Readonly<Record<string, number>> = { 'value the file writes most often': 1.3 };

/** The index of the greatest score, ties broken by a coin (a saboteur cannot do better with a tie). */
function argBest(scores: readonly number[]): number {
  const best = Math.max(...scores);
  const tied = scores.flatMap((s, i) => (s === best ? [i] : []));
  return tied[random(tied.length)]!;
}

async function seenGroups(entry: (typeof FILES)[number]): Promise<{ groups: Seen[]; file: Graded }> {
  const text = await readFile(path.join(ROOT, entry.file), 'utf8');
  const runner = getTestRunner(entry.format);
  const cases = await findTestCases(entry.rel, text);
  const file = groupFileOf(runner, entry.rel, text, cases)!;
  const ids = cases!.cases.map((c) => file.ids(c.path, c.name)[0]!);
  const drawn = drawGroups([file], { templateIds: ids, random });
  const out = drawn.texts.get(entry.rel) ?? text;
  const after = (await findTestCases(entry.rel, out))!;
  const groups: Seen[] = [];
  for (const g of drawn.groups) {
    const members = after.cases.flatMap((c) => {
      const id = file.ids(c.path, c.name)[0]!;
      const at = [g.real, ...g.copies].findIndex((m) => m === id || m.startsWith(`${id}[`));
      if (at < 0) return [];
      return [{ name: c.name, leaves: c.sites.flatMap((s) => s.leaves.map((l) => l.raw)), real: at === 0 }];
    });
    expect(members.length, `${entry.rel}: the members of ${g.template}`).toBe(g.copies.length + 1);
    // the one leaf the members do not agree on
    const varied = members[0]!.leaves.findIndex((_, i) => new Set(members.map((m) => m.leaves[i])).size > 1);
    groups.push({ members: members.map((m) => ({ name: m.name, value: m.leaves[varied]!, real: m.real })) });
  }
  return { groups, file: { text: out, literals: after.literals.map((l) => l.raw) } };
}

describe('tripwire groups against picks by form', () => {
  it.each(Object.keys(picks))('%s finds the test no more often than a blind pick', async (name) => {
    const pick = picks[name]!;
    random = seeded([...name].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261));
    let hits = 0;
    let blind = 0;
    let draws = 0;
    const perFile: Record<string, [number, number]> = {};
    for (let round = 0; round < 15; round++) {
      for (const entry of FILES) {
        const { groups, file } = await seenGroups(entry);
        for (const group of groups) {
          expect(group.members.filter((m) => m.real)).toHaveLength(1);
          draws += 1;
          blind += 1 / group.members.length;
          const hit = group.members[pick(group, file)]!.real;
          if (hit) hits += 1;
          const key = entry.rel + ' ' + group.members.map((m) => (m.real ? `[${m.value}]` : m.value)).join(',').slice(0, 0);
          perFile[key] = [(perFile[key]?.[0] ?? 0) + (hit ? 1 : 0), (perFile[key]?.[1] ?? 0) + 1 / group.members.length];
        }
      }
    }
    // a blind pick's hits have mean `blind` and variance at most `blind`; allow four deviations
    if (process.env.PICKS_DEBUG) console.log(name, JSON.stringify(perFile));
    expect(draws).toBeGreaterThan(300);
    const edge = KNOWN_EDGE[name] ?? 1;
    expect(hits, `${hits} of ${draws} groups (a blind pick: ${blind.toFixed(1)}; allowed edge ${edge}×)`).toBeLessThanOrEqual(edge * blind + 4 * Math.sqrt(edge * blind));
  }, 120_000);
});

describe('wires, where a file has no test a group can be made of (the gap TASKS.md calls partial)', () => {
  it.each(FILES.map((f) => f.format))('%s: code reading the file tells all three apart by their bodies', async (format) => {
    const entry = FILES.find((f) => f.format === format)!;
    const runner = getTestRunner(format);
    const text = await readFile(path.join(ROOT, entry.file), 'utf8');
    const drawn = drawTripwires(entry.rel, runner.testNamePrefix, (kind) => (kind === 'name' ? `x_${Math.random().toString(36).slice(2, 8)}` : 'some words'));
    const source = runner.tripwireSource({ ...drawn.target, text, moduleKind: 'cjs' });
    // the attack's reading: a test that reverses its own name, or one whose body is a bare throw or a constant comparison
    const spared = drawn.wires.filter((w) => new RegExp(`${w.name}[\\s\\S]{0,80}?(reverse|rev\\(\\)|::-1|raise |throw |panic!|'${[...w.name].reverse().join('')}'|"${[...w.name].reverse().join('')}")`).test(source));
    expect(spared.map((w) => w.name)).toEqual(drawn.wires.map((w) => w.name));
  });
});
