import { content, createNamer, cryptoRandom, drawVariants, isVariable, shuffle, type Random, type TestCase, type TestFileCases, type VariantContext } from '../runners/index.js';
import type { TripwireGroup } from './tripwires.js';
import { seededRandom } from './seeded-random.js';

/*
 * Tripwire groups (docs/decisions/002): a fail-to-pass test of a graded file becomes k+1 tests
 * in its place — itself and k copies — in random order, all under fresh names drawn from the
 * file's own words. The copies are the test's own code, calling the code under test the same
 * way, except that one literal of one of its equality assertions expects another answer in
 * each copy. With any honest code at most one of the k+1 can pass (one value cannot equal two
 * different literals), and with the right code it is the test itself; the report is mapped
 * back (the test's own copy to the id the lock knows). A report in which two of a group pass
 * has been tampered with. Code that wants the test to pass without computing its answer must
 * pick, in every group, which of k+1 answers is the right one: the names, the positions, the
 * bodies and the form of the values are drawn so that nothing but the values' meaning tells.
 */

/** Most copies one order's groups add in all; k per group is this spread over the groups. */
export const COPIES_PER_ORDER = 16;
/** Most groups in one order. */
export const MAX_GROUPS = 8;
/** Fewest and most copies in one group (a boolean leaf allows one). */
export const MIN_COPIES = 2;
export const MAX_COPIES = 8;

/** A graded test file as the groups see it. */
export interface GroupFile {
  readonly file: string;
  readonly text: string;
  readonly cases: TestFileCases;
  /** How a test defined here is reported (the runner's `testIds`). */
  readonly ids: (path: readonly string[], name: string) => readonly string[];
  /** How new names are written: `test_…` identifiers (Python), identifiers (Rust), titles (JavaScript). */
  readonly names: { readonly style: 'title' | 'identifier'; readonly prefix: string };
}

export interface DrawGroupsOptions {
  /** The ids a group may be made of (the order's fail-to-pass tests). */
  readonly templateIds: readonly string[];
  /**
   * Every id the report is known to hold (the lock's, or a baseline run's): a test renamed into
   * a group has every one of its known ids mapped back (a parametrized test's other cases too).
   * Default: `templateIds`.
   */
  readonly knownIds?: readonly string[];
  readonly random?: Random;
}

export interface DrawnGroups {
  /** Each file's new text (only files that got a group). */
  readonly texts: ReadonlyMap<string, string>;
  readonly groups: readonly TripwireGroup[];
  /** Fail-to-pass tests that could have been made a group (the ones chosen, and the others). */
  readonly eligible: readonly string[];
}

interface Candidate {
  readonly file: GroupFile;
  readonly test: TestCase;
  /** The lock ids it is reported as, with the id prefix each was matched by. */
  readonly ids: readonly { readonly id: string; readonly base: string }[];
}

/** How often a draw may be redrawn before the groups that single out their test are left out. */
const REDRAWS = 6;

/**
 * Draws the groups of one order. Pure but for `random`. The values are drawn per group, but the
 * graded file holds all groups at once: another group's copies may write a group's real value
 * again (as one of their own other answers, or in the code every member repeats), and a value
 * written more often than its group's others is the real one (a red-team pick that counted the
 * values in the graded file solved csv-multiline-fields four runs in five). So each draw is
 * counted in the file it makes: a draw in which a group's real value is written a unique most or
 * least often among its values is drawn again; after REDRAWS such draws those groups are left out.
 */
export function drawGroups(files: readonly GroupFile[], options: DrawGroupsOptions): DrawnGroups {
  const random = options.random ?? cryptoRandom;
  const skip = new Set<TestCase>();
  // the tests a group can be made of are the same in every draw: found once
  const candidates = files.flatMap((file) => candidatesOf(file, options.templateIds, options.knownIds ?? options.templateIds)).filter((c) => widestVariation(c, MIN_COPIES) > 0);
  for (let attempt = 0; ; attempt++) {
    const { drawn, made } = drawOnce(files, candidates, random, skip);
    const singled = made.filter((m) => singlesOut(drawn.texts.get(m.file.file) ?? m.file.text, m.raws, m.kind));
    if (singled.length === 0) return drawn;
    if (attempt >= REDRAWS) for (const m of singled) skip.add(m.test);
  }
}

/** Whether the first of `raws` (a group's real value) is written a unique most or least often in `text` among them. */
function singlesOut(text: string, raws: readonly string[], kind: string): boolean {
  // a boolean has one other value: which of true and false a file writes more says nothing of this test
  if (kind === 'boolean' || raws.length < 2) return false;
  // counted as written (same quotes) and with any quotes: a saboteur may count either way
  const ways = [(raw: string): number => text.split(raw).length - 1, (raw: string): number => writtenIn(text, raw)];
  return ways.some((count) => {
    const [real, ...others] = raws.map(count) as [number, ...number[]];
    return real > Math.max(...others) || real < Math.min(...others);
  });
}

/** How often `text` writes the literal `raw`: a string with any quotes, a number as a whole word. */
function writtenIn(text: string, raw: string): number {
  const quoted = /^([a-zA-Z]*)(['"`]+)([\s\S]*)\2$/.exec(raw);
  const escape = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = quoted ? new RegExp(`(['"\`])${escape(quoted[3]!)}\\1`, 'g') : new RegExp(`(?<![\\w.])${escape(raw)}(?![\\w.])`, 'g');
  return text.match(re)?.length ?? 0;
}

interface Made {
  readonly file: GroupFile;
  readonly test: TestCase;
  /** The literals the members expect at the site, the real one first. */
  readonly raws: readonly string[];
  readonly kind: string;
}

function drawOnce(files: readonly GroupFile[], candidates: readonly Candidate[], random: Random, skip: ReadonlySet<TestCase>): { drawn: DrawnGroups; made: Made[] } {
  const eligible = candidates.flatMap((c) => c.ids.map((i) => i.id)).sort();
  const chosen = shuffle(candidates.filter((c) => !skip.has(c.test)), random).slice(0, MAX_GROUPS);
  const base = copiesPerGroup(chosen.length);
  const edits = new Map<GroupFile, { span: { start: number; end: number }; text: string }[]>();
  const namers = new Map(files.map((f) => [f, createNamer(f.cases.names, { ...f.names, random })] as const));
  const groups: TripwireGroup[] = [];
  const made: Made[] = [];
  // members per chosen test, as the graded file will hold them: the draw counts each value as often as that file writes it
  const ks = chosen.map(() => Math.max(MIN_COPIES, base - random(2)));
  const members = new Map<TestCase, number>(chosen.map((c, i) => [c.test, ks[i]! + 1]));
  for (const [i, candidate] of chosen.entries()) {
    const group = makeGroup(candidate, ks[i]!, namers.get(candidate.file)!, random, members);
    members.set(candidate.test, group === null ? 1 : group.raws.length);
    if (group === null) continue;
    edits.set(candidate.file, [...(edits.get(candidate.file) ?? []), group.edit]);
    groups.push(...group.groups);
    made.push({ file: candidate.file, test: candidate.test, raws: group.raws, kind: group.kind });
  }
  const texts = new Map<string, string>();
  for (const [file, list] of edits) {
    let text = file.text;
    for (const edit of [...list].sort((a, b) => b.span.start - a.span.start)) text = text.slice(0, edit.span.start) + edit.text + text.slice(edit.span.end);
    texts.set(file.file, text);
  }
  return { drawn: { texts, groups, eligible }, made };
}

/** Copies per group (before the random one less) when an order has `groups` groups. */
function copiesPerGroup(groups: number): number {
  return Math.max(MIN_COPIES, Math.min(MAX_COPIES, Math.floor(COPIES_PER_ORDER / Math.max(1, groups))));
}

/** Draws groupOdds makes to find the fewest ways (seeded: TASKS.md gives the same figure every time). */
const ODDS_DRAWS = 24;

/**
 * How many ways a blind pick has to choose from, at least, when one order's groups are drawn:
 * over ODDS_DRAWS seeded draws, the fewest product of the groups' sizes (and the fewest groups),
 * so that code picking one test of each group at random passes with probability 1 / odds at
 * most in most gradings. Drawn rather than counted, because a draw may leave groups out (a value
 * that would single out its test, decision 002). 1: some draw makes no group at all.
 */
export function groupOdds(files: readonly GroupFile[], templateIds: readonly string[], knownIds: readonly string[]): { readonly groups: number; readonly odds: number } {
  let groups = Infinity;
  let odds = Infinity;
  for (let seed = 1; seed <= ODDS_DRAWS; seed++) {
    const drawn = drawGroups(files, { templateIds, knownIds, random: seededRandom(seed) });
    // one group per test (a parametrized test's cases share one)
    const sizes = new Map(drawn.groups.map((g) => [`${g.file}\u0000${g.site.line}\u0000${g.site.expected}`, g.copies.length + 1] as const));
    groups = Math.min(groups, sizes.size);
    odds = Math.min(odds, [...sizes.values()].reduce((a, b) => a * b, 1));
  }
  return { groups: Number.isFinite(groups) ? groups : 0, odds: Number.isFinite(odds) ? odds : 1 };
}

/** The most values one of the candidate's usable leaves can be given, up to k. */
function widestVariation(candidate: Candidate, k: number, members?: ReadonlyMap<TestCase, number>): number {
  const actuals = actualCounts(candidate.file);
  let widest = 0;
  for (const s of candidate.test.sites) {
    if (!usable(s, actuals)) continue;
    for (const leaf of s.leaves.filter(isVariable)) widest = Math.max(widest, drawVariants(leaf, contextOf(candidate, members), k).raws.length);
  }
  return widest;
}

/**
 * What a candidate's values are drawn against (tripwire-variants.ts); `members`: how many members
 * the other tests made groups have, so that a literal one of them writes counts that many times.
 */
function contextOf(candidate: Candidate, members?: ReadonlyMap<TestCase, number>): VariantContext {
  const mine = new Set(candidate.file.cases.cases);
  const others = [...(members ?? [])].filter(([test]) => test !== candidate.test && mine.has(test));
  const written = (l: { readonly span: { readonly start: number; readonly end: number } }): number =>
    others.find(([test]) => test.span.start <= l.span.start && l.span.end <= test.span.end)?.[1] ?? 1;
  return { literals: candidate.file.cases.literals, expected: candidate.file.cases.expectedLeaves, text: candidate.file.text, test: candidate.test.span, written };
}

function actualCounts(file: GroupFile): Map<string, number> {
  const actuals = new Map<string, number>();
  for (const test of file.cases.cases) for (const s of test.sites) actuals.set(s.actual, (actuals.get(s.actual) ?? 0) + 1);
  return actuals;
}

/**
 * The file's tests that are fail-to-pass, named once in the file, with a site whose literal can
 * vary, and every known id of which can be mapped back (none numbered as a repeat).
 */
function candidatesOf(file: GroupFile, templateIds: readonly string[], knownIds: readonly string[]): Candidate[] {
  const known = [...new Set([...knownIds, ...templateIds])];
  const failToPass = new Set(templateIds);
  const seen = new Map<string, number>();
  for (const test of file.cases.cases) seen.set(key(test), (seen.get(key(test)) ?? 0) + 1);
  const actuals = actualCounts(file);
  const out: Candidate[] = [];
  for (const test of file.cases.cases) {
    if (seen.get(key(test)) !== 1 || !test.sites.some((s) => usable(s, actuals))) continue;
    const ids: { id: string; base: string }[] = [];
    let repeated = false;
    for (const base of file.ids(test.path, test.name)) {
      for (const id of known) {
        if (id === base || (id.startsWith(`${base}[`) && id.endsWith(']'))) ids.push({ id, base });
        else if (id.startsWith(`${base} #`) || (id.startsWith(`${base}[`) && / #\d+$/.test(id))) repeated = true;
      }
    }
    if (!repeated && ids.some((i) => failToPass.has(i.id))) out.push({ file, test, ids });
  }
  return out;
}

/** A site bakeoff may vary: a leaf that can, and a computed side no other assertion of the file repeats (it would show the answer). */
function usable(site: TestCase['sites'][number], actuals: ReadonlyMap<string, number>): boolean {
  return actuals.get(site.actual) === 1 && site.leaves.some(isVariable);
}

function key(test: TestCase): string {
  return [...test.path, test.name].join('\u0000');
}

function makeGroup(
  candidate: Candidate,
  k: number,
  namer: () => string,
  random: Random,
  members: ReadonlyMap<TestCase, number>,
): { edit: { span: { start: number; end: number }; text: string }; groups: TripwireGroup[]; raws: string[]; kind: string } | null {
  const { file, test } = candidate;
  const actuals = actualCounts(file);
  const leaves = test.sites.filter((s) => usable(s, actuals)).flatMap((s) => s.leaves.filter(isVariable).map((leaf) => ({ site: s, leaf })));
  // a boolean gives one copy only: other leaves first
  const preferred = leaves.some((l) => l.leaf.kind !== 'boolean') ? leaves.filter((l) => l.leaf.kind !== 'boolean') : leaves;
  for (const { leaf } of shuffle([...preferred], random)) {
    const variants = drawVariants(leaf, contextOf(candidate, members), k, random);
    if (variants.raws.length === 0) continue;
    const values = [leaf.raw, ...variants.raws];
    const names = values.map(() => namer());
    const order = shuffle(values.map((_, i) => i), random);
    const source = file.text.slice(test.span.start, test.span.end);
    const member = (i: number): string => {
      const parts = [
        { span: test.nameSpan, text: file.names.style === 'title' ? requote(file.text.slice(test.nameSpan.start, test.nameSpan.end), names[i]!) : names[i]! },
        { span: leaf.span, text: values[i]! },
      ].sort((a, b) => b.span.start - a.span.start);
      let text = source;
      for (const part of parts) text = text.slice(0, part.span.start - test.span.start) + part.text + text.slice(part.span.end - test.span.start);
      return text;
    };
    const separator = file.names.style === 'title' ? `\n${test.indent}` : `\n\n${test.indent}`;
    const line = file.text.slice(0, leaf.span.start).split('\n').length;
    const groups = candidate.ids.map(({ id, base }) => {
      const rename = (name: string): string => base.slice(0, base.length - test.name.length) + name + id.slice(base.length);
      return {
        file: file.file,
        template: id,
        real: rename(names[0]!),
        copies: names.slice(1).map(rename),
        site: { line, expected: content(leaf), others: variants.raws.map((raw) => content({ ...leaf, raw })) },
      };
    });
    return { edit: { span: test.span, text: order.map(member).join(separator) }, groups, raws: values, kind: leaf.kind };
  }
  return null;
}

/** A title literal with its quotes kept and its text replaced (names hold only letters, digits and spaces). */
function requote(literal: string, name: string): string {
  return `${literal[0]}${name}${literal[literal.length - 1]}`;
}

