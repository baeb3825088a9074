import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import Database from 'better-sqlite3';
import { harnessNamed } from '../../../src/agents/harnesses/index.js';
import type { HarnessName } from '../../../src/agents/harnesses/types.js';
import { binOf } from '../../../src/agents/install-harness.js';
import { bakeoff, copySuite, FIXTURES } from '../helpers.js';

/** One model agent per harness, as the real-agents tests drive them. */
export const AGENT_SPECS: Readonly<Record<HarnessName, string>> = {
  'claude-code': 'claude-code:claude-sonnet-4-5',
  codex: 'codex:gpt-5.5@lowest',
  pi: 'pi:anthropic/claude-sonnet-4-5',
  opencode: 'opencode:anthropic/claude-sonnet-4-5',
  'gemini-cli': 'gemini-cli:gemini-2.5-pro',
};

/** Fails loudly (CI installs them with `bakeoff agents install`); never skips. */
export function requireHarnesses(): void {
  const missing = (Object.keys(AGENT_SPECS) as HarnessName[]).filter((h) => !existsSync(binOf(harnessNamed(h))));
  if (missing.length) throw new Error(`harnesses not installed: ${missing.join(', ')} — run \`npx bakeoff agents install\``);
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

/** A validated copy of the tiny fixture suite with one JS task, a short session wall clock, one run per agent. */
export async function oneTaskSuite(wallClockSec: number): Promise<string> {
  const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
  await rm(path.join(suite, 'tasks/py-add'), { recursive: true });
  const file = path.join(suite, 'suite.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace('sessionWallClockSec: 60', `sessionWallClockSec: ${wallClockSec}`));
  const v = await bakeoff(['validate', suite]);
  expect(v.exitCode, v.stderr).toBe(0);
  return suite;
}
