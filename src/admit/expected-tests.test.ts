import { describe, expect, it } from 'vitest';
import { expectedMismatches } from './expected-tests.js';

describe('expectedMismatches', () => {
  it('finds nothing when pytest node ids agree set by set', () => {
    const found = { failToPass: ['t.py::test_a'], passToPass: ['t.py::test_b'] };
    expect(expectedMismatches(found, found, ['t.py::test_a', 't.py::test_b'])).toEqual([]);
  });

  it('names each test the instance and bakeoff put in different sets, or that only one of them has', () => {
    const lines = expectedMismatches({ failToPass: ['t.py::test_a', 't.py::gone'], passToPass: [] }, { failToPass: ['t.py::test_b'], passToPass: ['t.py::test_a'] }, ['t.py::test_a', 't.py::test_b']);
    expect(lines).toEqual([
      't.py::test_a: the instance says fail-to-pass; bakeoff found pass-to-pass',
      "t.py::gone: the instance says fail-to-pass; bakeoff's runs reported no such test",
      't.py::test_b: bakeoff found fail-to-pass; the instance lists it in neither set',
    ]);
  });

  it('matches cargo test paths and jest titles by the end of bakeoff id, and cut parametrised ids by their start', () => {
    const ids = ['integration::regression::r2208', 'src/a.test.js::sum > adds', 't.py::test_f[rfc 822]'];
    const found = { failToPass: ['integration::regression::r2208', 'src/a.test.js::sum > adds'], passToPass: ['t.py::test_f[rfc 822]'] };
    expect(expectedMismatches({ failToPass: ['regression::r2208', 'adds'], passToPass: ['t.py::test_f[rfc'] }, found, ids)).toEqual([]);
  });

  it("matches a TAP description as SWE-bench's parse_log_tap keeps it (`- name # time=…`) by the name", () => {
    const ids = ['test/a.js::clamp > raises values below', 'keeps values inside'];
    const found = { failToPass: ['test/a.js::clamp > raises values below'], passToPass: ['keeps values inside'] };
    expect(expectedMismatches({ failToPass: ['- raises values below # time=1.2ms'], passToPass: ['- keeps values inside'] }, found, ids)).toEqual([]);
    expect(expectedMismatches({ failToPass: ['- raises values above'], passToPass: ['keeps values inside'] }, found, ids)[0]).toBe(
      "- raises values above: the instance says fail-to-pass; bakeoff's runs reported no such test",
    );
  });

  it('reports an id that matches several of bakeoff tests instead of guessing', () => {
    const ids = ['a.rs::t', 'b.rs::t'];
    expect(expectedMismatches({ failToPass: ['t'], passToPass: [] }, { failToPass: ids, passToPass: [] }, ids)[0]).toBe('t: the instance says fail-to-pass; it matches 2 of bakeoff\'s tests (a.rs::t, b.rs::t)');
  });
});
