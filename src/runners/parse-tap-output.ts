import { Parser, type FinalResults, type Result } from 'tap-parser';
import type { ParsedReport, TestResult, TestStatus } from './types.js';
import { firstLine } from './first-line.js';
import { mergeTestResults } from './merge-test-results.js';
import { numberRepeats } from './number-repeats.js';
import { tapLinesParsed } from './tap-lines-parsed.js';

/*
 * A TAP stream as tap-parser (node-tap's own parser) reads it, kept as a tree: each level (the
 * stream, each subtest's body) holds its test points in order, each with the body it closes, and
 * at the top level the comment lines between them (tape names its tests with them).
 */
interface Level {
  readonly name: string;
  readonly entries: Entry[];
  /** A subtest whose closing test point has not arrived yet. */
  pending: Level | undefined;
  /** The name of the last `# Subtest: <name>` comment since the last test point (node:test announces every test so, even one without a body). */
  announced: string | undefined;
  results: FinalResults | undefined;
  /** tap-parser made the plan up (`1..0 # no tests found`): the stream had none. */
  syntheticPlan?: boolean;
  /** Announced by `# Subtest:` with no body at all: a test with no assertions of its own. */
  readonly empty?: boolean;
}
type Entry = { readonly kind: 'heading'; readonly text: string } | { readonly kind: 'point'; readonly result: Result; readonly body: Level | undefined };

/** A tape test name comment: `# name`, one space, no leading blank (TAP diagnostics are indented further). */
const HEADING = /^# (\S.*?)\s*$/;
/** A test point or version line at the top level (column 0), for the checks tap-parser does not make. */
const TOP_POINT = /^(not )?ok\b/;
const TOP_VERSION = /^TAP version \d+\s*$/;
const SUBTEST = /^\s*# Subtest: (.*?)\s*$/;

export interface TapOutputOptions {
  /** Whether a name is a file of the repo (node-tap names each test file's subtest by its path). */
  readonly isFile: (name: string) => boolean;
  /** The file of each `# name` heading, called heading after heading (tape; tape-files.ts); null: none known. */
  readonly headingFile?: (name: string) => string | null;
}

/**
 * Reads a TAP 13/14 stream (the test command's stdout) into per-test results.
 *
 * What a test is: a subtest whose body holds only assertions (node-tap's `t.test`, node:test's
 * TAP) is one test, failed when its own test point is `not ok`; a subtest whose body holds
 * subtests is a group, reported through its subtests (and as an error of its own when it failed
 * with none of them failing: a hook, a plan, a timeout). Test points that close no subtest are
 * tests of their own, named by their description — except in a stream without subtests (tape),
 * where a `# name` comment names the test that the test points after it (its assertions) make
 * up, failed when one of them is `not ok`, its id `<file>::name` when `headingFile` knows the
 * file (tape-files.ts). `# SKIP` and `# TODO` (and tape's `# SKIP name`) are skips. Ids are the names from the top down, `group > test`; under a top-level subtest named
 * by a file of the repo (node-tap runs each file as one), `<file>::group > test`, or the file
 * alone when the file's assertions are not in subtests. A second test of the same id is
 * `… #2`.
 *
 * The tests print to the same stdout, so the report must hold together as one producer's
 * stream: every level's plan must match its test points, the stream must have a plan, be one
 * stream (one `TAP version` line, no test point before it), not bail out, and hold no TAP error
 * (a test point number seen twice, out of the plan). Each is a problem (report-inconsistent).
 */
export function parseTapOutput(text: string, options: TapOutputOptions): ParsedReport {
  const root = newLevel('');
  const parser = new Parser();
  watch(parser, root, true);
  // what tap-parser would only pass by (tap-lines-parsed.ts): the same lines that matter, read in seconds
  const stream = tapLinesParsed(text);
  parser.end(stream);
  const problems = [...streamProblems(stream), ...levelProblems(root, true)];
  const hasSubtests = points(root).some((e) => e.body !== undefined);
  const results = hasSubtests ? groupResults(root, { file: null, path: [] }, options, true, problems) : headingResults(root, problems, options.headingFile);
  return mergeTestResults(numberRepeats(results), problems);
}

function newLevel(name: string, empty = false): Level {
  return { name, entries: [], pending: undefined, announced: undefined, results: undefined, ...(empty ? { empty } : {}) };
}

function watch(parser: Parser, level: Level, top: boolean): void {
  // a child's first comment is its own announcement, not one of a test inside it
  let ownAnnouncement = !top;
  parser.on('comment', (line: string) => {
    const text = line.replace(/\n$/, '');
    const subtest = SUBTEST.exec(text);
    if (subtest) {
      if (ownAnnouncement && subtest[1] === level.name) ownAnnouncement = false;
      else level.announced = subtest[1];
      return;
    }
    const heading = top ? HEADING.exec(text) : null;
    if (heading) level.entries.push({ kind: 'heading', text: heading[1]! });
  });
  parser.on('child', (child: Parser) => {
    const body = newLevel(child.name);
    level.pending = body;
    level.announced = undefined;
    watch(child, body, false);
  });
  parser.on('assert', (result: Result) => {
    const announced = level.pending === undefined && level.announced !== undefined && level.announced === result.name.trim();
    level.entries.push({ kind: 'point', result, body: level.pending ?? (announced ? newLevel(result.name.trim(), true) : undefined) });
    level.pending = undefined;
    level.announced = undefined;
  });
  parser.on('complete', (results: FinalResults) => {
    level.results = results;
    level.syntheticPlan = parser.syntheticPlan;
  });
}

function points(level: Level): Extract<Entry, { kind: 'point' }>[] {
  return level.entries.filter((e): e is Extract<Entry, { kind: 'point' }> => e.kind === 'point');
}

/** One stream from one producer: a single version line, nothing that looks like a result before it. */
function streamProblems(text: string): string[] {
  const lines = text.split('\n');
  const versions = lines.flatMap((line, i) => (TOP_VERSION.test(line) ? [i] : []));
  const problems: string[] = [];
  if (versions.length > 1) problems.push(`the output holds ${versions.length} TAP streams ("TAP version" lines); bakeoff reads one producer's stream`);
  const first = versions[0];
  if (first !== undefined && lines.slice(0, first).some((line) => TOP_POINT.test(line))) {
    problems.push('test points were printed before the "TAP version" line');
  }
  return problems;
}

/** Plans, TAP errors and bail-outs of a level and every subtest below it. */
function levelProblems(level: Level, top: boolean): string[] {
  const where = top ? 'the TAP stream' : `subtest "${level.name}"`;
  const problems: string[] = [];
  if (level.empty) return [];
  const results = level.results;
  if (results === undefined) return [`${where} never ended`];
  const count = points(level).length;
  const { start, end } = results.plan;
  if (start === null || end === null || start === undefined || end === undefined || level.syntheticPlan === true) {
    if (top && count === 0) problems.push('the command printed no TAP (no plan and no test point)');
    else if (count > 0) problems.push(`${where} has no plan (1..N)`);
  } else if (count !== end - start + 1) {
    problems.push(`${where} plans ${end - start + 1} test points (${start}..${end}) but has ${count}`);
  }
  for (const failure of results.failures) {
    const tapError = (failure as { tapError?: unknown }).tapError;
    if (typeof tapError === 'string' && tapError !== 'no plan' && tapError !== 'incorrect number of tests') problems.push(`${where}: ${tapError}`);
  }
  if (top && results.bailout !== false) {
    problems.push(`the TAP producer bailed out${typeof results.bailout === 'string' && results.bailout !== '' ? `: ${results.bailout}` : ''}`);
  }
  if (level.pending !== undefined) problems.push(`subtest "${level.pending.name}" has no closing test point`);
  for (const entry of points(level)) if (entry.body !== undefined) problems.push(...levelProblems(entry.body, false));
  return problems;
}

function pointStatus(result: Result): TestStatus {
  if (result.todo !== false || result.skip !== false) return 'skip';
  return result.ok ? 'pass' : 'fail';
}

/** The first line of a failing point's diagnostic `message` (or `error`), when it has one. */
function diagMessage(result: Result): string | undefined {
  const diag = result.diag as Record<string, unknown> | null;
  const text = diag?.message ?? diag?.error;
  return typeof text === 'string' ? firstLine(text) : undefined;
}

/** A test made of assertions: its status, with the first failing assertion as its message. */
function aggregate(id: string, assertions: readonly Result[], own: Result | undefined, problems: string[]): TestResult {
  const failed = assertions.find((a) => pointStatus(a) === 'fail');
  const status = own !== undefined ? pointStatus(own) : failed !== undefined ? 'fail' : assertions.every((a) => pointStatus(a) === 'skip') ? 'skip' : 'pass';
  if (status === 'pass' && failed !== undefined) problems.push(`test "${id}" is ok but its assertion "${failed.name}" is not`);
  if (status !== 'fail') return { id, status };
  const message = firstLine(failed?.name) ?? diagMessage(failed ?? own!) ?? firstLine(own?.name);
  return { id, status, ...(message === undefined ? {} : { message }) };
}

/** A stream without subtests (tape): `# name` comments group the test points after them, `<file>::name` when its file is known. */
function headingResults(level: Level, problems: string[], headingFile: TapOutputOptions['headingFile']): TestResult[] {
  const out: TestResult[] = [];
  let group: { id: string; skip: boolean; assertions: Result[] } | undefined;
  const close = (): void => {
    if (group === undefined) return;
    if (group.assertions.length > 0) out.push(aggregate(group.id, group.assertions, undefined, problems));
    else if (group.skip) out.push({ id: group.id, status: 'skip' });
  };
  for (const entry of level.entries) {
    if (entry.kind === 'heading') {
      close();
      const directive = /^(SKIP|TODO) (.+)$/.exec(entry.text);
      const name = directive ? directive[2]! : entry.text;
      const file = headingFile?.(name) ?? null;
      group = { id: idOf(file, [name]), skip: directive?.[1] === 'SKIP', assertions: [] };
    } else if (group !== undefined) {
      group.assertions.push(entry.result);
    } else {
      out.push(aggregate(nameOf(entry.result), [], entry.result, problems));
    }
  }
  close();
  return out;
}

function nameOf(result: Result): string {
  return result.name.trim() === '' ? `#${result.id}` : result.name.trim();
}

function idOf(file: string | null, path: readonly string[]): string {
  if (file === null) return path.join(' > ');
  return path.length === 0 ? file : `${file}::${path.join(' > ')}`;
}

/** A level holding subtests: each subtest is a test or a group, other points tests of their own. */
function groupResults(
  level: Level,
  at: { readonly file: string | null; readonly path: readonly string[] },
  options: TapOutputOptions,
  top: boolean,
  problems: string[],
): TestResult[] {
  const out: TestResult[] = [];
  for (const entry of points(level)) {
    const name = nameOf(entry.result);
    const byFile = top && entry.body !== undefined && options.isFile(name);
    const file = byFile ? name : at.file;
    const path = byFile ? [] : [...at.path, name];
    const id = idOf(file, path);
    const body = entry.body;
    if (body === undefined || !points(body).some((e) => e.body !== undefined)) {
      out.push(aggregate(id, body === undefined ? [] : points(body).map((e) => e.result), entry.result, problems));
      continue;
    }
    const inner = groupResults(body, { file, path }, options, false, problems);
    if (pointStatus(entry.result) === 'fail' && !inner.some((r) => r.status === 'fail' || r.status === 'error')) {
      const message = diagMessage(entry.result) ?? `the group failed with none of its tests failing`;
      inner.push({ id, status: 'error', message });
    }
    out.push(...inner);
  }
  return out;
}
