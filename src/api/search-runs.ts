import { open } from 'node:fs/promises';
import path from 'node:path';
import { SEARCHABLE_ORDER_FILES, orderDir, runDir, type Store } from '../store/index.js';
import type { RunRecord } from '../types.js';

/** The files of an order searched for text: what the agent got, said and did, and what the tests said. */
const SEARCHED = SEARCHABLE_ORDER_FILES;
/** Read at most this much of each file. */
const MAX_BYTES = 4 * 1024 * 1024;
/** At most this many runs are returned. */
const MAX_RUNS = 1000;

/**
 * The ids of the runs whose prompts, agent output, change or test output contain `query`
 * (case-insensitive, plain text), in the order of `runs`; at most 1000. Reads each file
 * bounded; a missing file is skipped.
 */
export async function searchRuns(store: Store, runs: readonly RunRecord[], query: string): Promise<string[]> {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const found: string[] = [];
  for (const run of runs) {
    if (found.length >= MAX_RUNS) break;
    if (await runContains(runDir(store.runsDir, run.id), run.orders.map((o) => o.order), needle)) found.push(run.id);
  }
  return found;
}

async function runContains(dir: string, orders: readonly number[], needle: string): Promise<boolean> {
  for (const order of orders) {
    for (const file of SEARCHED) {
      const text = await readBounded(path.join(orderDir(dir, order), file));
      if (text !== null && text.toLowerCase().includes(needle)) return true;
    }
  }
  return false;
}

async function readBounded(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(Math.min(MAX_BYTES, (await handle.stat()).size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
