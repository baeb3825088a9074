import { describe, expect, it } from 'vitest';
import { stableTestIds } from './stable-test-ids.js';
import type { ParsedReport } from './types.js';

const report = (...ids: string[]): ParsedReport => ({ tests: ids.map((id) => ({ id, status: 'pass' as const })), problems: [] });
const ids = (r: ParsedReport) => r.tests.map((t) => t.id);

describe('stableTestIds', () => {
  it('gives the same ids to the same tests run from checkouts at different paths', () => {
    const title = (dir: string) => `test/a.test.mjs::resolves ${dir}/src against ${dir}`;
    const a = stableTestIds(report(title('/tmp/s1/1-baseline-1/w/ws'), 'test/a.test.mjs::plain'), '/tmp/s1/1-baseline-1/w/ws');
    const b = stableTestIds(report(title('/tmp/s9/1-gold-2/w/ws'), 'test/a.test.mjs::plain'), '/tmp/s9/1-gold-2/w/ws/');
    expect(ids(a)).toEqual(['test/a.test.mjs::resolves <repo>/src against <repo>', 'test/a.test.mjs::plain']);
    expect(ids(b)).toEqual(ids(a));
  });

  it('numbers an id that the replacement makes equal to another, never merges them', () => {
    const r = stableTestIds(report('t::in <repo>', 't::in /w/ws', 't::in /w/ws'), '/w/ws');
    expect(ids(r)).toEqual(['t::in <repo>', 't::in <repo> #2', 't::in <repo> #3']);
  });

  it("takes a Python object's address out of a parameter id, and numbers the ids that become equal", () => {
    const a = stableTestIds(report('t.py::test_f[<Foo object at 0x7f3a12bc4d90>]', 't.py::test_f[<Foo object at 0x7f3a12bc4e20>]', 't.py::test_hex[0x7f3a12bc]'), '/w/ws');
    const b = stableTestIds(report('t.py::test_f[<Foo object at 0x7fe001a2b3c4>]', 't.py::test_f[<Foo object at 0x7fe001a2b5d6>]', 't.py::test_hex[0x7f3a12bc]'), '/w/ws');
    expect(ids(a)).toEqual(['t.py::test_f[<Foo object at 0x…>]', 't.py::test_f[<Foo object at 0x…>] #2', 't.py::test_hex[0x7f3a12bc]']);
    expect(ids(b)).toEqual(ids(a));
  });

  it('leaves a report whose ids do not carry the path as it was', () => {
    const r = report('t::one', 't::two');
    expect(stableTestIds(r, '/w/ws')).toBe(r);
  });
});
