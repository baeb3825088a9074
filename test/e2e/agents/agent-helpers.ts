import path from 'node:path';
import { expect } from 'vitest';
import Database from 'better-sqlite3';
import { HARNESS_NAMES, type HarnessName } from '../../../src/agents/harnesses/index.js';
import { testRecipeOf } from '../../../src/agents/harnesses/test-recipe.js';
import { installedClis } from '../../../src/agents/installed-clis.test-support.js';
import { validatedOneTask } from '../tiny-suite.js';

/** One model agent per registered harness, as the real-agents tests drive them: its folder's `test-recipe.ts` `e2eSpec`. */
export const AGENT_SPECS: Readonly<Record<HarnessName, string>> = Object.fromEntries(
  await Promise.all(HARNESS_NAMES.map(async (name) => [name, (await testRecipeOf(name)).e2eSpec] as const)),
) as Record<HarnessName, string>;

/**
 * Fails loudly when a CLI these tests drive is missing or reports a version other than its pin
 * (CI installs them with `bakeoff agents install`); never skips: these tests drive every harness
 * in one bake, so BAKEOFF_MISSING_CLIS excuses nothing here.
 */
export async function requireHarnesses(): Promise<void> {
  const problems = (await installedClis({ ...process.env, BAKEOFF_MISSING_CLIS: '' })).filter((c) => c.name in AGENT_SPECS && c.problem).map((c) => c.problem);
  if (problems.length) throw new Error(`pinned CLIs unusable:\n${problems.join('\n')}`);
}

export interface StoredSession {
  run_id: string;
  ord: number;
  usage_json: string | null;
  harness_json: string | null;
  error: string | null;
}

export interface StoredRequest {
  run_id: string;
  format: string | null;
  status: number | null;
  failure: string | null;
  /** The proxy's explanation of a failed request. */
  detail: string | null;
  model: string | null;
  input: number | null;
  cache_read: number | null;
  cache_write: number | null;
  output: number | null;
  reasoning: number | null;
}

/** Reads sessions and model requests straight from a results folder's SQLite file. */
export function readStore(out: string): { sessions: StoredSession[]; requests: StoredRequest[] } {
  const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  try {
    return {
      sessions: db.prepare('SELECT run_id, ord, usage_json, harness_json, error FROM sessions').all() as StoredSession[],
      requests: db.prepare('SELECT * FROM requests ORDER BY run_id, ord, seq').all() as StoredRequest[],
    };
  } finally {
    db.close();
  }
}

/** A validated copy of the tiny fixture suite with one JS task, a short session wall clock, one run per agent (validated once per test run and wall clock). */
export async function oneTaskSuite(wallClockSec: number): Promise<string> {
  return validatedOneTask(wallClockSec);
}

/** A count the sandboxed leak search wrote into its `leak-report.txt` (`+<name> <n>` in the run's patch); NaN when the line is missing. */
export function leakCount(patch: string, name: string): number {
  return Number(new RegExp(`^\\+${name} (\\d+)$`, 'm').exec(patch)?.[1] ?? 'NaN');
}

/** The search ran over the sandbox (processes and files seen) and found the real secret nowhere: not in its environment, any process, or any file. */
export function expectNoLeak(patch: string): void {
  expect(patch).toContain('leak-report.txt');
  expect(leakCount(patch, 'processes')).toBeGreaterThan(2);
  expect(leakCount(patch, 'searched')).toBeGreaterThan(10);
  expect(leakCount(patch, 'env')).toBe(0);
  expect(leakCount(patch, 'proc')).toBe(0);
  expect(leakCount(patch, 'files')).toBe(0);
}
