import type { ParsedReport, TestResult } from './types.js';

/** What a test id carries where the path of the checkout under test was. */
export const REPO_PLACEHOLDER = '<repo>';

/** A Python object's default repr carries its memory address, different in every process: `<Foo object at 0x7f3a…>`. */
const ADDRESS = / at 0x[0-9a-fA-F]{4,16}>/g;

/**
 * Takes out of test ids what differs from one run of the same tests to the next:
 * - the checkout's own path becomes `<repo>`: every run tests a checkout at a path of its own
 *   (the stage or the run names it), so a title built from `process.cwd()` or `__dirname` would
 *   otherwise be a different test in every run;
 * - a Python object's address in a parameter id (`test_f[<Foo object at 0x7f3a…>]`, pytest's id
 *   for `ids=repr`, say) becomes ` at 0x…>`.
 * Without it admission calls such a test flaky (it vanishes from one baseline run and appears in
 * the other) and no agent could pass it. An id that this makes equal to another one gets the next
 * free occurrence number (`… #2`), as same-titled tests do, never a merge. Pure.
 */
export function stableTestIds(report: ParsedReport, repoDir: string): ParsedReport {
  const root = repoDir.replace(/\/+$/, '');
  const stable = (id: string): string => (root === '' ? id : id.replaceAll(root, REPO_PLACEHOLDER)).replace(ADDRESS, ' at 0x…>');
  if (!report.tests.some((t) => stable(t.id) !== t.id)) return report;
  const taken = new Set(report.tests.filter((t) => stable(t.id) === t.id).map((t) => t.id));
  const tests = report.tests.map((test): TestResult => {
    const base = stable(test.id);
    if (base === test.id) return test;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base} #${n}`;
    taken.add(id);
    return { ...test, id };
  });
  return { ...report, tests };
}
