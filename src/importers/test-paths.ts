import picomatch from 'picomatch';

/*
 * Which files of a commit are tests (they go to `orders/1/hidden/`) and which are the change
 * (`gold.patch`). The default rule is SWE-bench's keyword rule made per path segment: a folder
 * named test, tests, __tests__, spec, specs, testing or e2e anywhere in the path, or a file
 * name of a test: `*.test.*`, `*.spec.*`, `test_*.py`, `*_test.py`, `*_test.go`, `*_test.rs`.
 * Tests inside a source file (Rust's `#[cfg(test)] mod tests`) cannot be split from the code:
 * such a commit has no test file by this rule, and `--tests GLOB` names the files instead.
 */

const TEST_FOLDERS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'testing', 'e2e']);
const TEST_NAMES = [/\.(test|spec)\.[A-Za-z0-9]+$/, /^test_.*\.py$/, /_test\.(py|go|rs)$/];

/** The rule, or the author's globs (picomatch, relative to the repository root) when given. */
export function testPathRule(globs: readonly string[] = []): (file: string) => boolean {
  if (globs.length > 0) {
    const match = picomatch(globs as string[], { dot: true });
    return (file) => match(file);
  }
  return (file) => {
    const parts = file.split('/');
    const name = parts.at(-1)!;
    return parts.slice(0, -1).some((p) => TEST_FOLDERS.has(p)) || TEST_NAMES.some((re) => re.test(name));
  };
}
