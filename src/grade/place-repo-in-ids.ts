import type { ParsedReport, TestResult } from './types.js';

/** What a test id carries where the path of the checkout under test was. */
export const REPO_PLACEHOLDER = '<repo>';

/**
 * Replaces the checkout's own path in test ids with `<repo>`. Every run tests a checkout at a
 * path of its own (the stage or the run names it), so a title built from `process.cwd()` or
 * `__dirname` would otherwise be a different test in every run: admission would call it flaky
 * (it vanishes from one baseline run and appears in the other) and no agent could pass it. An id
 * that the replacement makes equal to another one gets the next free occurrence number
 * (`… #2`), as same-titled tests do, never a merge.
 */
export function placeRepoInIds(report: ParsedReport, repoDir: string): ParsedReport {
  const root = repoDir.replace(/\/+$/, '');
  if (root === '' || !report.tests.some((t) => t.id.includes(root))) return report;
  const taken = new Set(report.tests.filter((t) => !t.id.includes(root)).map((t) => t.id));
  const tests = report.tests.map((test): TestResult => {
    if (!test.id.includes(root)) return test;
    const base = test.id.replaceAll(root, REPO_PLACEHOLDER);
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base} #${n}`;
    taken.add(id);
    return { ...test, id };
  });
  return { ...report, tests };
}
