import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate.js';
import { drawTripwires, judgeTripwires, withoutTripwires } from './tripwires.js';
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
