import { z } from 'zod';
import type { ParsedReport, TestResult, TestStatus } from './types.js';
import { firstLine } from './first-line.js';
import { mergeTestResults } from './merge-test-results.js';

/** libtest's `--format json` lines that bakeoff reads; others (bench, timeout) are ignored. */
const LibtestLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('test'),
    event: z.string(),
    name: z.string(),
    stdout: z.string().optional(),
    message: z.string().optional(),
  }),
  z.object({
    type: z.literal('suite'),
    event: z.string(),
    test_count: z.number().optional(),
    passed: z.number().optional(),
    failed: z.number().optional(),
    ignored: z.number().optional(),
  }),
]);
type LibtestLine = z.infer<typeof LibtestLine>;

const STATUSES: Readonly<Record<string, TestStatus>> = { ok: 'pass', failed: 'fail', ignored: 'skip' };

/** `Running unittests src/lib.rs (target/…)` or `Running tests/api.rs (target/…)` (stderr). */
const RUNNING = /^\s*Running (unittests )?(.+?) \([^()]*\)\s*$/;
/** `Doc-tests <crate>` (stderr). */
const DOC_TESTS = /^\s*Doc-tests \S+\s*$/;
const ANSI_ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g;
const UNFINISHED = 'the test binary ended before this test finished';

/** One test binary's run, from its `Running` line to the next. */
interface Binary {
  readonly label: string;
  readonly started: Set<string>;
  readonly finished: Set<string>;
  readonly counts: Record<TestStatus, number>;
  summaries: number;
  summary?: { readonly passed?: number; readonly failed?: number; readonly ignored?: number };
}

/**
 * Reads the interleaved stdout+stderr of `cargo test … -- -Z unstable-options --format json`.
 * cargo's `Running …` / `Doc-tests …` lines name the binary whose JSON lines follow, giving
 * labels `lib` (src/lib.rs), the target's path otherwise (`tests/api.rs`, `src/main.rs`), and
 * `doc`; ids are `<label>::<test name>`, e.g. `lib::tests::parses`, `tests/api.rs::get_ok`.
 * Lines that are not libtest JSON (compiler output, test prints) are skipped.
 *
 * Problems: a binary whose summary line never arrived (it crashed or was killed; the tests it
 * had started become errors), a summary whose counts disagree with the results reported, and
 * an id reported with different statuses (code under test can print fake JSON lines).
 */
export function parseCargoOutput(text: string): ParsedReport {
  const binaries: Binary[] = [];
  const results: TestResult[] = [];
  const problems: string[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(ANSI_ESCAPE, '');
    const label = binaryLabel(line);
    if (label !== undefined) {
      binaries.push(newBinary(label));
      continue;
    }
    const event = libtestLine(line);
    if (event === undefined) continue;
    let binary = binaries.at(-1);
    if (binary === undefined) {
      problems.push('cargo output has test results before any "Running" line');
      binary = newBinary('unknown');
      binaries.push(binary);
    }
    const result = onEvent(binary, event);
    if (result !== undefined) results.push(result);
  }
  for (const binary of binaries) {
    results.push(...checkBinary(binary, problems));
  }
  return mergeTestResults(stableDoctestIds(results), problems);
}

/** `src/lib.rs - wrap::Wrapper::new (line 151)`, with rustdoc's ` - compile fail`-style suffix after it. */
const DOCTEST_LINE = /^(doc::.*) \(line (\d+)\)(.*)$/;

/**
 * Doctest ids without their line numbers: rustdoc names a doctest by its file, item and line, so
 * a correct fix that adds one line above a doc comment would rename every doctest below it. The
 * id is `doc::<file> - <item><suffix>`; when one item has several doctests they are numbered in
 * line order (`… #2`), which moving lines does not change.
 */
export function stableDoctestIds(results: readonly TestResult[]): TestResult[] {
  const split = (id: string): { base: string; line: number } | null => {
    const m = DOCTEST_LINE.exec(id);
    return m ? { base: `${m[1]}${m[3]}`, line: Number(m[2]) } : null;
  };
  const lines = new Map<string, number[]>();
  for (const r of results) {
    const d = split(r.id);
    if (d === null) continue;
    const known = lines.get(d.base) ?? [];
    if (!known.includes(d.line)) known.push(d.line);
    lines.set(d.base, known);
  }
  for (const known of lines.values()) known.sort((a, b) => a - b);
  return results.map((r) => {
    const d = split(r.id);
    if (d === null) return r;
    const known = lines.get(d.base)!;
    return { ...r, id: known.length === 1 ? d.base : `${d.base} #${known.indexOf(d.line) + 1}` };
  });
}

function newBinary(label: string): Binary {
  const counts = { pass: 0, fail: 0, skip: 0, error: 0 };
  return { label, started: new Set(), finished: new Set(), counts, summaries: 0 };
}

function binaryLabel(line: string): string | undefined {
  if (DOC_TESTS.test(line)) return 'doc';
  const running = RUNNING.exec(line);
  if (running === null) return undefined;
  const target = running[2] ?? '';
  return running[1] !== undefined && target === 'src/lib.rs' ? 'lib' : target;
}

function libtestLine(line: string): LibtestLine | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const parsed = LibtestLine.safeParse(JSON.parse(trimmed));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function onEvent(binary: Binary, event: LibtestLine): TestResult | undefined {
  if (event.type === 'suite') {
    if (event.event === 'ok' || event.event === 'failed') {
      binary.summaries += 1;
      binary.summary = { passed: event.passed, failed: event.failed, ignored: event.ignored };
    }
    return undefined;
  }
  const id = `${binary.label}::${event.name}`;
  if (event.event === 'started') binary.started.add(event.name);
  const status = STATUSES[event.event];
  if (status === undefined) return undefined;
  binary.finished.add(event.name);
  binary.counts[status] += 1;
  const message = status === 'fail' ? panicMessage(event.stdout) : status === 'skip' ? event.message : undefined;
  return { id, status, ...(message ? { message } : {}) };
}

/** The panic message (the line after `panicked at file:line:col:`), else the first line. */
function panicMessage(stdout: string | undefined): string | undefined {
  if (stdout === undefined) return undefined;
  const panic = /panicked at [^\n]*:\n([^\n]*)/.exec(stdout);
  return firstLine(panic?.[1]) ?? firstLine(stdout);
}

function checkBinary(binary: Binary, problems: string[]): TestResult[] {
  if (binary.summary === undefined) {
    problems.push(`cargo test binary ${binary.label} ended without its summary line (it crashed or was killed)`);
    return [...binary.started]
      .filter((name) => !binary.finished.has(name))
      .map((name) => ({ id: `${binary.label}::${name}`, status: 'error', message: UNFINISHED }));
  }
  if (binary.summaries > 1) {
    problems.push(`cargo test binary ${binary.label} printed ${binary.summaries} summary lines`);
  }
  const { passed, failed, ignored } = binary.summary;
  const { pass, fail, skip } = binary.counts;
  if (passed !== pass || failed !== fail || ignored !== skip) {
    problems.push(
      `cargo test binary ${binary.label}: its summary says ${passed} passed, ${failed} failed, ${ignored} ignored ` +
        `but ${pass} ok, ${fail} failed, ${skip} ignored results were reported`,
    );
  }
  return [];
}
