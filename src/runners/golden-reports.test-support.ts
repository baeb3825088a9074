import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestResult, TestRunner } from './types.js';

/*
 * What the runners' unit tests share: the golden reports captured from the real tools
 * (test/fixtures/reports/<sample>/: report/ as the runner wrote it, expected.json as bakeoff must
 * read it) and the comparison they make. Test support, left out of the build.
 */

export const REPORTS = fileURLToPath(new URL('../../test/fixtures/reports/', import.meta.url));

/** Ids and statuses only, in id order: what a golden file pins down. */
export function idsAndStatuses(tests: readonly TestResult[]): { id: string; status: TestResult['status'] }[] {
  return tests.map(({ id, status }) => ({ id, status })).sort((a, b) => a.id.localeCompare(b.id));
}

/** The sample's expected.json. */
export async function expectedOf(sample: string): Promise<{ tests: TestResult[]; problems: string[] }> {
  return JSON.parse(await readFile(path.join(REPORTS, sample, 'expected.json'), 'utf8')) as { tests: TestResult[]; problems: string[] };
}

/** The runner's reading of the sample's report folder, from a repo root elsewhere (the report records its own). */
export function parseGolden(runner: TestRunner, sample: string, repoDir = '/elsewhere'): ReturnType<TestRunner['parse']> {
  return runner.parse({ reportDir: path.join(REPORTS, sample, 'report'), output: '', repoDir });
}
