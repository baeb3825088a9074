import { describe, expect, it } from 'vitest';
import { uncollectedHint } from './uncollected-hint.js';

describe('the hint naming hidden files no test result came from', () => {
  it.each([
    ['every hidden file has results', ['tests/test_new.py'], ['tests/test_new.py::test_a'], ''],
    ['one hidden file without results', ['tests/test_new.py'], ['tests/unit/test_old.py::test_b'], '; no test result came from the hidden file orders/1/hidden/tests/test_new.py: does the test command `pytest tests/unit` collect it?'],
    ['two, with no results at all', ['a_test.py', 'b_test.py'], [], '; no test result came from the hidden files orders/1/hidden/a_test.py, orders/1/hidden/b_test.py: does the test command `pytest tests/unit` collect them?'],
    ['a rustdoc id names its file', ['src/lib.rs'], ['doc::src/lib.rs - item (line 3)'], ''],
  ] as const)('%s', (_name, hiddenFiles, ids, hint) => {
    expect(uncollectedHint({ order: 1, hiddenFiles, ids, command: 'pytest tests/unit' })).toBe(hint);
  });
});
