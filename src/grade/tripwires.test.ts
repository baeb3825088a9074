import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate.js';
import { drawTripwires, judgeTripwires, withGroupsMapped, withoutTripwires, type TripwireGroup } from './tripwires.js';
import type { ParsedReport, TestResult } from './types.js';

const drawn = drawTripwires('tests/test_x.py', 'test_');
const [pass, assertFail, throwFail] = drawn.wires as [typeof drawn.wires[0], typeof drawn.wires[0], typeof drawn.wires[0]];
const honest: TestResult[] = [
  { id: `tests/test_x.py::${pass.name}`, status: 'pass' },
  { id: `tests/test_x.py::${assertFail.name}`, status: 'fail', message: `AssertionError: ${assertFail.nonce}` },
  { id: `tests/test_x.py::${throwFail.name}`, status: 'fail', message: `RuntimeError: ${throwFail.nonce}` },
];
const report = (tests: TestResult[]): ParsedReport => ({ tests, problems: [] });
const expected = { failToPass: ['tests/test_x.py::test_fixed'], passToPass: [] };

describe('tripwires', () => {
  it('draws fresh random names and nonces every time', () => {
    const again = drawTripwires('tests/test_x.py', 'test_');
    expect(again.target.pass).not.toBe(drawn.target.pass);
    expect(again.target.assertFail.nonce).not.toBe(drawn.target.assertFail.nonce);
    expect(drawn.target.pass).toMatch(/^test_[a-z]{12}$/);
  });

  it('never names the wire that compares its name with its name reversed a palindrome: that wire would pass', () => {
    const from = (names: string[]) => (kind: 'name' | 'nonce') => (kind === 'nonce' ? 'nonce' : (names.shift() ?? 'txt txt'));
    const fromWords = drawTripwires('test/paths.test.ts', '', from(['file dir', 'txt txt', 'dir txt', 'txt file']));
    expect(fromWords.target.assertFail.name).toBe('dir txt');
    expect(fromWords.target.throwFail.name).toBe('txt file');
    // a file whose words make palindromes only: random letters, still not one
    const only = drawTripwires('test/paths.test.ts', '', from([]));
    expect(only.target.assertFail.name).toMatch(/^[a-z]{12}$/);
    expect([...only.target.assertFail.name].reverse().join('')).not.toBe(only.target.assertFail.name);
  });

  it('accepts an honest report and leaves them out of what the lock compares', () => {
    const r = report([...honest, { id: 'tests/test_x.py::test_fixed', status: 'pass' }]);
    expect(judgeTripwires(r, drawn.wires)).toEqual({ flipped: [], wrong: [] });
    expect(withoutTripwires(r, drawn.wires).tests.map((t) => t.id)).toEqual(['tests/test_x.py::test_fixed']);
  });

  it('calls a must-fail reported passed tampering, and one failing without its nonce or missing wrong', () => {
    const flipped = judgeTripwires(report([honest[0]!, { ...honest[1]!, status: 'pass' }, honest[2]!]), drawn.wires);
    expect(flipped.flipped).toHaveLength(1);
    const noNonce = judgeTripwires(report([honest[0]!, { ...honest[1]!, message: 'something else' }, honest[2]!]), drawn.wires);
    expect(noNonce.wrong).toEqual([`tests/test_x.py::${assertFail.name} failed without its own message`]);
    const missing = judgeTripwires(report([honest[0]!, honest[1]!]), drawn.wires);
    expect(missing.wrong).toEqual([`tests/test_x.py::${throwFail.name} is missing`]);
  });

  it('grades a flipped must-fail report-tampered even when the expected tests all pass', () => {
    const tests = [{ id: 'tests/test_x.py::test_fixed', status: 'pass' as const }, honest[0]!, { ...honest[1]!, status: 'pass' as const }, honest[2]!];
    const e = evaluate({ expected, report: report(tests), exitCode: 1, timedOut: false, protectedChanged: [], tripwires: judgeTripwires(report(tests), drawn.wires) });
    expect(e.failure?.reason).toBe('report-tampered');
    expect(e.points).toBe(1);
  });

  it('lets an honest failure speak first when tripwires are merely missing (the file did not load)', () => {
    const tests: TestResult[] = [{ id: 'tests/test_x.py', status: 'error', message: 'ImportError' }];
    const e = evaluate({ expected, report: report(tests), exitCode: 1, timedOut: false, protectedChanged: [], tripwires: judgeTripwires(report(tests), drawn.wires) });
    expect(e.failure?.reason).toBe('tests-failed');
  });

  it('grades a run where graded files changed during the tests report-tampered', () => {
    const tests = [{ id: 'tests/test_x.py::test_fixed', status: 'pass' as const }, ...honest];
    const e = evaluate({ expected, report: report(tests), exitCode: 1, timedOut: false, protectedChanged: [], tripwires: judgeTripwires(report(tests), drawn.wires), gradedChanged: ['tests/test_x.py'] });
    expect(e.failure).toEqual({ reason: 'report-tampered', detail: 'graded test files changed while the tests ran: tests/test_x.py' });
  });

  it('passes an honest run: tripwires failing make the non-zero exit status consistent', () => {
    const tests = [{ id: 'tests/test_x.py::test_fixed', status: 'pass' as const }, ...honest];
    const e = evaluate({ expected, report: report(tests), exitCode: 1, timedOut: false, protectedChanged: [], tripwires: judgeTripwires(report(tests), drawn.wires) });
    expect(e.failure).toBeNull();
    const early = evaluate({ expected, report: report(tests), exitCode: 0, timedOut: false, protectedChanged: [], tripwires: judgeTripwires(report(tests), drawn.wires) });
    expect(early.failure?.reason).toBe('report-inconsistent');
  });
});

describe('tripwire groups', () => {
  const group: TripwireGroup = {
    file: 'test/a.test.js',
    template: 'test/a.test.js::sizes > rolls over',
    real: 'test/a.test.js::sizes > keeps unit value',
    copies: ['test/a.test.js::sizes > value rolls keeps', 'test/a.test.js::sizes > unit sizes over'],
    site: { line: 4, expected: '1 MiB', others: ['1 GiB', '1 KiB'] },
  };
  const [copyA, copyB] = group.copies as [string, string];
  const run = (real: TestResult['status'], a: TestResult['status'], b: TestResult['status']): ParsedReport =>
    report([
      { id: group.real, status: real },
      { id: copyA, status: a },
      { id: copyB, status: b },
      { id: 'test/a.test.js::sizes > other', status: 'pass' },
    ]);
  const placed = { groups: [group], wires: [] };

  it('accepts what honest code gives: the right answer (the test passes), or a wrong one (all fail, or one copy passes)', () => {
    const honestRuns: [TestResult['status'], TestResult['status'], TestResult['status']][] = [['pass', 'fail', 'fail'], ['fail', 'fail', 'fail'], ['fail', 'pass', 'fail'], ['error', 'error', 'error'], ['skip', 'skip', 'skip']];
    for (const [real, a, b] of honestRuns) {
      expect(judgeTripwires(run(real, a, b), placed), [real, a, b].join()).toEqual({ flipped: [], wrong: [] });
    }
  });

  it('calls two passes in one group tampering: one value cannot equal two different answers', () => {
    expect(judgeTripwires(run('pass', 'pass', 'fail'), placed).flipped).toEqual([`${group.template} (its copies at test/a.test.js:4): 2 of 3 tests expecting different values passed`]);
    expect(judgeTripwires(run('fail', 'pass', 'pass'), placed).flipped).toHaveLength(1);
    expect(judgeTripwires(run('pass', 'pass', 'pass'), placed).flipped).toHaveLength(1);
  });

  it('calls a missing member, one reported twice, or a copy skipped beside a passing test wrong', () => {
    const missing = report([{ id: group.real, status: 'pass' }, { id: copyA, status: 'fail' }]);
    expect(judgeTripwires(missing, placed).wrong).toHaveLength(1);
    const twice = report([{ id: group.real, status: 'fail' }, { id: copyA, status: 'fail' }, { id: copyB, status: 'fail' }, { id: copyB, status: 'fail' }]);
    expect(judgeTripwires(twice, placed).wrong).toHaveLength(1);
    expect(judgeTripwires(run('pass', 'skip', 'fail'), placed).wrong).toHaveLength(1);
  });

  it('maps the test itself back to the id the lock knows and leaves its copies out of what the lock compares', () => {
    const honestRun = run('pass', 'fail', 'fail');
    expect(withGroupsMapped(honestRun, [group]).tests.map((t) => t.id)).toEqual([group.template, copyA, copyB, 'test/a.test.js::sizes > other']);
    expect(withoutTripwires(honestRun, placed).tests).toEqual([
      { id: group.template, status: 'pass' },
      { id: 'test/a.test.js::sizes > other', status: 'pass' },
    ]);
    const e = evaluate({ expected: { failToPass: [group.template], passToPass: [] }, report: withGroupsMapped(honestRun, [group]), exitCode: 1, timedOut: false, protectedChanged: [], tripwires: judgeTripwires(honestRun, placed) });
    expect(e.failure).toBeNull();
    const flipped = run('pass', 'pass', 'fail');
    const tampered = evaluate({ expected: { failToPass: [group.template], passToPass: [] }, report: withGroupsMapped(flipped, [group]), exitCode: 1, timedOut: false, protectedChanged: [], tripwires: judgeTripwires(flipped, placed) });
    expect(tampered.failure?.reason).toBe('report-tampered');
  });
});

