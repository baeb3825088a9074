import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

/*
 * Grading real code (issue 18). servo/rust-fnv, whose lib.rs carries crate-level doctests that
 * rustdoc names by line (`lib.rs - (line 30)`). The gold fix adds crate documentation above
 * them, moving every one, and a doctest of its own on `fnv_hash`. Admission must keep the moved
 * doctests' ids (they are pass-to-pass), must not require the gold's own doctest, and every
 * correct fix — the gold, or a one-line fix that moves nothing — is solved; noop fails.
 * minimistjs/minimist's tests are tape scripts, which node:test reports only per file: each
 * file is one test whose id is the file (no tripwires can go into such a file; decision 002).
 * A vitest table that lists one `join` case twice (as unjs/pathe's does; the module is written
 * for the fixture): two tests of the same describe path and title in one file are two ids, the
 * second `… #2`, in the lock and in a failed run's detail, never one merged result.
 */

interface Lock { tasks: Record<string, { admitted: boolean; orders: { failToPass: string[]; passToPass: string[] }[] }> }
interface JsonRun { task: string; agent: string; outcome: string; failReason: string | null; outcomeDetail: string | null }

// the same fix without any documentation: swap the two lines of the loop back
const ONE_LINE_FIX = `command:python3 -c "import re,pathlib; p=pathlib.Path('lib.rs'); s=p.read_text(); s=s.replace('        hash = hash.wrapping_mul(PRIME);\\n        hash ^= bytes[i] as u64;\\n', '        hash ^= bytes[i] as u64;\\n        hash = hash.wrapping_mul(PRIME);\\n', 1); p.write_text(s)"`;

// fixes extname and breaks join only for the case the table lists twice
const BREAK_DUPLICATE = `command:python3 -c "import pathlib; p=pathlib.Path('src/paths.ts'); s=p.read_text(); s=s.replace('[^.]+)', '[^.]*)', 1).replace('  const match', '  if (base == \\'..\\') return \\'\\';\\n  const match', 1); s=s.replace('export function join(...segments: string[]): string {\\n', 'export function join(...segments: string[]): string {\\n  if (segments[0] === \\'some/nodejs/deep\\') return \\'broken\\';\\n', 1); p.write_text(s)"`;
const JOIN = "test/paths.test.ts::join > join('some/nodejs/deep','../path') should be 'some/nodejs/path'";

describe('a real crate whose fix moves every doctest (servo/rust-fnv)', () => {
  let suite: string;
  let lock: Lock;
  let runs: JsonRun[];
  let validateOut: string;

  beforeAll(async () => {
    suite = await copySuite(path.join(FIXTURES, 'suites/real-repos'));
    const v = await bakeoff(['validate', suite]);
    validateOut = v.stdout + v.stderr;
    expect(v.exitCode, validateOut).toBe(0);
    lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as Lock;
    const out = await tempDir();
    const r = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--agent', ONE_LINE_FIX, '--agent', BREAK_DUPLICATE, '--runs', '1', '--out', out, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    runs = (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
  }, 900_000);

  it('admits the task with the doctests as pass-to-pass ids without line numbers', () => {
    const task = lock.tasks['fnv-const-hash']!;
    expect(task.admitted).toBe(true);
    const [order] = task.orders;
    expect(order!.passToPass.filter((id) => id.startsWith('doc::'))).toEqual(['doc::lib.rs - #1', 'doc::lib.rs - #2']);
    expect([...order!.failToPass, ...order!.passToPass].some((id) => /line \d+/.test(id))).toBe(false);
  });

  it("does not require the gold's own doctest, and says so", () => {
    const order = lock.tasks['fnv-const-hash']!.orders[0]!;
    expect(order.failToPass).toEqual(['tests/const_hash.rs::agrees_with_the_hasher', 'tests/const_hash.rs::matches_reference_values', 'tests/const_hash.rs::works_in_const_context']);
    expect(validateOut).toContain('not required: doc::lib.rs - fnv_hash (added by the gold change outside the task\'s test files)');
  });

  it('solves the gold fix that moves every doctest and the one-line fix; noop fails', () => {
    const fnv = runs.filter((r) => r.task === 'fnv-const-hash' && r.agent !== BREAK_DUPLICATE);
    const byAgent = Object.fromEntries(fnv.map((r) => [r.agent, `${r.outcome}${r.failReason ? ` ${r.failReason}` : ''}`]));
    expect(byAgent, JSON.stringify(fnv.map((r) => r.outcomeDetail))).toEqual({ gold: 'solved', noop: 'failed tests-failed', [ONE_LINE_FIX]: 'solved' });
  });

  it('admits the tape suite with one test per file, the hidden file fail-to-pass', () => {
    const task = lock.tasks['minimist-negation']!;
    expect(task.admitted).toBe(true);
    const [order] = task.orders;
    expect(order!.failToPass).toEqual(['test/parse.js']);
    expect(order!.passToPass).toHaveLength(15);
    expect(order!.passToPass.every((id) => /^test\/\w+\.js$/.test(id))).toBe(true);
  });

  it('solves the tape task with the gold and fails noop on the hidden file', () => {
    const tape = runs.filter((r) => r.task === 'minimist-negation' && (r.agent === 'gold' || r.agent === 'noop'));
    expect(Object.fromEntries(tape.map((r) => [r.agent, `${r.outcome}${r.failReason ? ` ${r.failReason}` : ''}`]))).toEqual({ gold: 'solved', noop: 'failed tests-failed' });
    expect(tape.find((r) => r.agent === 'noop')!.outcomeDetail).toContain('test/parse.js');
  });

  it("admits the duplicate-title vitest tests as two ids each, the second numbered", () => {
    const task = lock.tasks['paths-extname-dot']!;
    expect(task.admitted).toBe(true);
    const [order] = task.orders;
    expect(order!.failToPass).toEqual(["test/paths.test.ts::extname > extname('...') should be '.'", "test/paths.test.ts::extname > extname('dir\\x.') should be '.'", "test/paths.test.ts::extname > extname('foo.') should be '.'"]);
    const join = order!.passToPass.filter((id) => id.startsWith(JOIN));
    expect(join).toEqual([JOIN, `${JOIN} on Windows`, `${JOIN} #2`, `${JOIN} on Windows #2`].sort());
  });

  it('solves the paths task with the gold, fails noop, and fails a change that breaks the duplicate case naming both ids', () => {
    const paths = runs.filter((r) => r.task === 'paths-extname-dot' && r.agent !== ONE_LINE_FIX);
    const byAgent = Object.fromEntries(paths.map((r) => [r.agent, `${r.outcome}${r.failReason ? ` ${r.failReason}` : ''}`]));
    expect(byAgent, JSON.stringify(paths.map((r) => r.outcomeDetail))).toEqual({ gold: 'solved', noop: 'failed tests-failed', [BREAK_DUPLICATE]: 'failed tests-failed' });
    const detail = paths.find((r) => r.agent === BREAK_DUPLICATE)!.outcomeDetail!;
    // the change breaks the POSIX case only: both tests of that title fail, each by its own id
    expect(detail).toContain(`${JOIN} #2`);
    expect(detail.replaceAll(`${JOIN} #2`, '')).toContain(JOIN);
    expect(detail).not.toContain('on Windows');
  });
});
