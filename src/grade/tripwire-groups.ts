import { content, createNamer, cryptoRandom, drawVariants, isVariable, shuffle, type Random, type TestCase, type TestFileCases, type VariantContext } from '../runners/index.js';
import type { TripwireGroup } from './tripwires.js';

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

/** Draws the groups of one order. Pure but for `random`. */
export function drawGroups(files: readonly GroupFile[], options: DrawGroupsOptions): DrawnGroups {
  const random = options.random ?? cryptoRandom;
  const candidates = files.flatMap((file) => candidatesOf(file, options.templateIds, options.knownIds ?? options.templateIds)).filter((c) => widestVariation(c, MIN_COPIES) > 0);
  const eligible = candidates.flatMap((c) => c.ids.map((i) => i.id)).sort();
  const chosen = shuffle([...candidates], random).slice(0, MAX_GROUPS);
  const base = copiesPerGroup(chosen.length);
  const edits = new Map<GroupFile, { span: { start: number; end: number }; text: string }[]>();
  const namers = new Map(files.map((f) => [f, createNamer(f.cases.names, { ...f.names, random })] as const));
  const groups: TripwireGroup[] = [];
  for (const candidate of chosen) {
    const k = base - random(2);
    const made = makeGroup(candidate, Math.max(MIN_COPIES, k), namers.get(candidate.file)!, random);
    if (made === null) continue;
    edits.set(candidate.file, [...(edits.get(candidate.file) ?? []), made.edit]);
    groups.push(...made.groups);
  }
  const texts = new Map<string, string>();
  for (const [file, list] of edits) {
    let text = file.text;
    for (const edit of [...list].sort((a, b) => b.span.start - a.span.start)) text = text.slice(0, edit.span.start) + edit.text + text.slice(edit.span.end);
    texts.set(file.file, text);
  }
  return { texts, groups, eligible };
}

/** Copies per group (before the random one less) when an order has `groups` groups. */
function copiesPerGroup(groups: number): number {
  return Math.max(MIN_COPIES, Math.min(MAX_COPIES, Math.floor(COPIES_PER_ORDER / Math.max(1, groups))));
}

/**
 * How many ways a blind pick has to choose from, at least, when one order's groups are drawn:
 * the product over the groups of their sizes (the fewest copies each may get, the fewest values
 * its leaves can be given), so that code picking one test of each group at random passes with
 * probability 1 / odds. 1: no group at all.
 */
export function groupOdds(files: readonly GroupFile[], templateIds: readonly string[], knownIds: readonly string[]): { readonly groups: number; readonly odds: number } {
  // a candidate none of whose leaves can be given another value makes no group
  const candidates = files.flatMap((file) => candidatesOf(file, templateIds, knownIds)).filter((c) => widestVariation(c, MIN_COPIES) > 0);
  const groups = Math.min(MAX_GROUPS, candidates.length);
  const fewest = Math.max(MIN_COPIES, copiesPerGroup(groups) - 1);
  // the groups a draw may leave out are the ones that would count most: count the smallest
  const sizes = candidates.map((c) => 1 + widestVariation(c, fewest)).sort((a, b) => a - b).slice(0, groups);
  return { groups, odds: sizes.reduce((a, b) => a * b, 1) };
}

/** The most values one of the candidate's usable leaves can be given, up to k. */
function widestVariation(candidate: Candidate, k: number): number {
  const actuals = actualCounts(candidate.file);
  let widest = 0;
  for (const s of candidate.test.sites) {
    if (!usable(s, actuals)) continue;
    for (const leaf of s.leaves.filter(isVariable)) widest = Math.max(widest, drawVariants(leaf, contextOf(candidate), k).raws.length);
  }
  return widest;
}

/** What a candidate's values are drawn against (tripwire-variants.ts). */
function contextOf(candidate: Candidate): VariantContext {
  return { literals: candidate.file.cases.literals, expected: candidate.file.cases.expectedLeaves, text: candidate.file.text, test: candidate.test.span };
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

function makeGroup(candidate: Candidate, k: number, namer: () => string, random: Random): { edit: { span: { start: number; end: number }; text: string }; groups: TripwireGroup[] } | null {
  const { file, test } = candidate;
  const actuals = actualCounts(file);
  const leaves = test.sites.filter((s) => usable(s, actuals)).flatMap((s) => s.leaves.filter(isVariable).map((leaf) => ({ site: s, leaf })));
  // a boolean gives one copy only: other leaves first
  const preferred = leaves.some((l) => l.leaf.kind !== 'boolean') ? leaves.filter((l) => l.leaf.kind !== 'boolean') : leaves;
  for (const { leaf } of shuffle([...preferred], random)) {
    const variants = drawVariants(leaf, contextOf(candidate), k, random);
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
    return { edit: { span: test.span, text: order.map(member).join(separator) }, groups };
  }
  return null;
}

/** A title literal with its quotes kept and its text replaced (names hold only letters, digits and spaces). */
function requote(literal: string, name: string): string {
  return `${literal[0]}${name}${literal[literal.length - 1]}`;
}

