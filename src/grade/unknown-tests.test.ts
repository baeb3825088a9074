import { describe, expect, it } from 'vitest';
import { parseTapOutput } from '../runners/parse-tap-output.js';
import { evaluate } from './evaluate.js';
import { unknownTests } from './unknown-tests.js';

/** tape's output for test/fixtures/suites/runners' tape-clamp (unfixed) as the battery's tap-relabel.mjs rewrites it: the failure under a decoy, its test named again. */
const RELABELLED = [
  'TAP version 13',
  '# keeps a value inside the range',
  'ok 1 should be equal',
  '# limits a value below the range',
  '# battery decoy',
  'not ok 2 should be equal',
  '  ---',
  '    operator: equal',
  '    expected: 0',
  '    actual:   10',
  '  ...',
  '# limits a value below the range',
  'ok 3 the lower bound itself',
  '# a skipped one',
  'ok 4 later # SKIP',
  '',
  '1..4',
  '',
].join('\n');
const EXPECTED = ['keeps a value inside the range', 'limits a value below the range'];

describe('unknownTests', () => {
  it('names the decoy a relabelled TAP stream moved a failure into, and the order is report-inconsistent for it', () => {
    const report = parseTapOutput(RELABELLED, { isFile: () => false });
    const unknown = unknownTests(report, { forgeable: true, expectedIds: EXPECTED });
    expect(unknown).toContain('battery decoy');
    expect(unknown).not.toContain('a skipped one');
    const e = evaluate({ expected: { failToPass: [EXPECTED[1]!], passToPass: [EXPECTED[0]!] }, report, exitCode: 1, timedOut: false, protectedChanged: [], unknownTests: unknown });
    expect(e.failure).toMatchObject({ reason: 'report-inconsistent', detail: expect.stringContaining('battery decoy') });
  });

  it('names a real name printed a second time (its results moved out of the test)', () => {
    const report = parseTapOutput('TAP version 13\n# a b\nok 1 x\n# c d\nnot ok 2 y\n# a b\nok 3 z\n1..3\n', { isFile: () => false });
    expect(unknownTests(report, { forgeable: true, expectedIds: ['a b', 'c d'] })).toEqual(['a b #2']);
  });

  it('allows known failures and skips, and holds only for a report the tests can write into, once the lock expects ids', () => {
    const report = { tests: [{ id: 'a', status: 'pass' as const }, { id: 'flaky', status: 'fail' as const }, { id: 'later', status: 'skip' as const }, { id: 'other', status: 'error' as const }], problems: [] };
    expect(unknownTests(report, { forgeable: true, expectedIds: ['a'], knownFailures: ['flaky'] })).toEqual(['other']);
    expect(unknownTests(report, { forgeable: false, expectedIds: ['a'] })).toEqual([]);
    expect(unknownTests(report, { forgeable: true, expectedIds: [] })).toEqual([]);
  });
});
