import { randomBytes } from 'node:crypto';
import { reversed } from '../runners/index.js';
import type { ParsedReport, TestResult, TestRunner, TripwireTarget } from './types.js';

/*
 * Tripwires: tests of bakeoff's own in the graded test files themselves (so they run in the
 * same process, after the same imports, under the same framework as the hidden tests), drawn
 * anew for every grading (docs/decisions/002).
 *
 * Groups (tripwire-groups.ts): a fail-to-pass test becomes itself and k copies that ask the
 * code under test the same question and expect other answers, under fresh names, in random
 * order. At most one of a group can pass honestly; two passing is tampering.
 *
 * Wires, where a file has no test a group can be made of: three tests appended in the file's
 * framework — one must pass, one must fail through the framework's assertion with its nonce in
 * the message, one must fail by throwing its nonce. They catch "make every failure pass"
 * sabotage, but code that reads the file can tell them from the hidden tests.
 */

/** One tripwire test (a wire), as bakeoff expects the report to show it. */
export interface Tripwire {
  /** Repo-relative test file it was added to. */
  readonly file: string;
  /** Its test name (random); its id in the report ends with `::<name>`. */
  readonly name: string;
  readonly expect: 'pass' | 'fail';
  /** For a must-fail: text its failure message must hold (null when the runner gives no message). */
  readonly nonce: string | null;
}

/** One fail-to-pass test made a group for this grading, by the ids the report shows. */
export interface TripwireGroup {
  /** Repo-relative test file. */
  readonly file: string;
  /** The test's id as the lock knows it: what its own copy is reported as again. */
  readonly template: string;
  /** The id the test itself is reported under in this grading. */
  readonly real: string;
  /** The ids of its copies, each expecting another answer. */
  readonly copies: readonly string[];
  /** What the copies change: the literal at `line` (1-based) of the file as graded, and the values they expect instead. */
  readonly site: { readonly line: number; readonly expected: string; readonly others: readonly string[] };
}

/** What a grading placed: groups and wires. */
export interface Tripwires {
  readonly groups: readonly TripwireGroup[];
  readonly wires: readonly Tripwire[];
}

/** A random identifier that reads like a test name and that no agent can know in advance. */
function randomName(prefix: string): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(12);
  return prefix + [...bytes].map((b) => letters[b % 26]).join('');
}

/** Tries of `name` before a name of random letters: a file whose words make palindromes only. */
const NAME_TRIES = 100;

/**
 * A name for the wire whose assertion compares its name with its name reversed: never a
 * palindrome (`txt txt`, drawn from a file's own words, reads the same backwards, and that
 * wire passed for an honest change: report-tampered).
 */
function failingName(name: (kind: 'name') => string, namePrefix: string): string {
  for (let tries = 0; ; tries++) {
    const drawn = tries < NAME_TRIES ? name('name') : randomName(namePrefix);
    if (reversed(drawn) !== drawn) return drawn;
  }
}

/** Names and nonces for one file's wires, fresh every time (`name` draws them; random letters by default). */
export function drawTripwires(file: string, namePrefix: string, name: (kind: 'name' | 'nonce') => string = (kind) => (kind === 'name' ? randomName(namePrefix) : randomBytes(9).toString('hex'))): { target: Omit<TripwireTarget, 'text' | 'moduleKind'>; wires: Tripwire[] } {
  const pass = name('name');
  const assertFail = { name: failingName(name, namePrefix), nonce: name('nonce') };
  const throwFail = { name: name('name'), nonce: name('nonce') };
  return {
    target: { file, pass, assertFail, throwFail },
    wires: [
      { file, name: pass, expect: 'pass', nonce: null },
      { file, name: assertFail.name, expect: 'fail', nonce: assertFail.nonce },
      { file, name: throwFail.name, expect: 'fail', nonce: throwFail.nonce },
    ],
  };
}

/** The appended source for `target`, from the runner. */
export function tripwireSource(runner: TestRunner, target: TripwireTarget): string {
  return runner.tripwireSource(target);
}

/** Whether a reported id is the wire's. */
function isWire(id: string, wire: Tripwire): boolean {
  return id === wire.name || id.endsWith(`::${wire.name}`) || id.endsWith(` > ${wire.name}`);
}

/** Accepts what conformance tests and older callers pass: wires alone, or wires and groups. */
function asTripwires(tripwires: readonly Tripwire[] | Tripwires): Tripwires {
  return 'wires' in tripwires ? tripwires : { groups: [], wires: tripwires };
}

/**
 * The report as the lock reads it: each group's own copy under the test's id again (the
 * copies stay, so the runner's failing exit status still agrees with the report).
 */
export function withGroupsMapped(report: ParsedReport, groups: readonly TripwireGroup[]): ParsedReport {
  if (groups.length === 0) return report;
  const back = new Map(groups.map((g) => [g.real, g.template] as const));
  return { ...report, tests: report.tests.map((t): TestResult => (back.has(t.id) ? { ...t, id: back.get(t.id)! } : t)) };
}

/** The report without bakeoff's tests (ids the lock never holds): wires and group copies out, groups mapped back. */
export function withoutTripwires(report: ParsedReport, tripwires: readonly Tripwire[] | Tripwires): ParsedReport {
  const { groups, wires } = asTripwires(tripwires);
  const copies = new Set(groups.flatMap((g) => g.copies));
  const mapped = withGroupsMapped(report, groups);
  return { ...mapped, tests: mapped.tests.filter((t) => !copies.has(t.id) && !wires.some((w) => isWire(t.id, w))) };
}

/** How the report disagrees with the tripwires. */
export interface TripwireVerdict {
  /** A result no honest run gives (a must-fail reported passed, two of a group passed): the report was certainly tampered with. */
  readonly flipped: readonly string[];
  /** Tripwires missing, with the wrong status, or failing without their nonce. */
  readonly wrong: readonly string[];
}

/** Compares the report (as the runner wrote it: groups not mapped back) with what the tripwires must show. Pure. */
export function judgeTripwires(report: ParsedReport, tripwires: readonly Tripwire[] | Tripwires): TripwireVerdict {
  const { groups, wires } = asTripwires(tripwires);
  const flipped: string[] = [];
  const wrong: string[] = [];
  for (const wire of wires) {
    const results = report.tests.filter((t) => isWire(t.id, wire));
    const where = `${wire.file}::${wire.name}`;
    if (results.length === 0) {
      wrong.push(`${where} is missing`);
      continue;
    }
    for (const result of results) {
      const problem = judgeOne(wire, result);
      if (problem === 'flipped') flipped.push(`${where} must fail but was reported passed`);
      else if (problem !== null) wrong.push(`${where} ${problem}`);
    }
  }
  const byId = new Map<string, TestResult[]>();
  for (const t of report.tests) byId.set(t.id, [...(byId.get(t.id) ?? []), t]);
  for (const group of groups) judgeGroup(group, byId, flipped, wrong);
  return { flipped, wrong };
}

function judgeOne(wire: Tripwire, result: TestResult): 'flipped' | string | null {
  if (wire.expect === 'pass') return result.status === 'pass' ? null : `must pass but was reported ${result.status}`;
  if (result.status === 'pass') return 'flipped';
  if (result.status !== 'fail' && result.status !== 'error') return `must fail but was reported ${result.status}`;
  if (wire.nonce !== null && !(result.message ?? '').includes(wire.nonce)) return 'failed without its own message';
  return null;
}

/**
 * A group's rules: every member reported once; at most one passed (two different expected
 * values cannot both equal what the code returned); and no copy skipped while the test itself
 * passed (a copy runs the same code up to its changed assertion, so it skips only where the
 * test does).
 */
function judgeGroup(group: TripwireGroup, byId: ReadonlyMap<string, readonly TestResult[]>, flipped: string[], wrong: string[]): void {
  const members = [group.real, ...group.copies];
  const results = members.map((id) => byId.get(id) ?? []);
  const what = `${group.template} (its copies at ${group.file}:${group.site.line})`;
  const missing = members.filter((_, i) => results[i]!.length !== 1);
  if (missing.length > 0) wrong.push(`${what}: ${missing.length} of its ${members.length} tests reported ${results.some((r) => r.length > 1) ? 'more than once or not at all' : 'missing'}`);
  const passed = results.filter((r) => r.some((t) => t.status === 'pass')).length;
  if (passed >= 2) flipped.push(`${what}: ${passed} of ${members.length} tests expecting different values passed`);
  const realPassed = results[0]!.some((t) => t.status === 'pass');
  if (realPassed && results.slice(1).some((r) => r.some((t) => t.status === 'skip'))) wrong.push(`${what}: a copy was skipped while the test passed`);
}
