import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactDigest } from '../store/index.js';
import type { RunRecord } from '../types.js';
import { LOCK_FILE } from '../suite/index.js';
import { sha256 } from '../util/index.js';
import { BAKEOFF_VERSION } from '../version.js';

/** What a stamp keeps of a re-check: verify's whole result, of which the stamp itself reads only the counts. */
export interface StampedResult {
  readonly mismatches: number;
  readonly unverified: number;
}

/**
 * `<results>/verified.json`: the last clean `verify` of a results folder (0 mismatches, every
 * run re-checked), with what it checked — so `publish` of the same, unchanged folder does not
 * re-grade every run again (a public and a private site of one folder cost one re-check).
 */
export const VERIFY_STAMP_FILE = 'verified.json';

interface VerifyStamp {
  readonly schemaVersion: 1;
  /** What the verdicts were re-checked with and against: the bakeoff, the results' content, the suite and its lock. */
  readonly key: StampKey;
  readonly at: string;
  readonly result: StampedResult;
}

interface StampKey {
  readonly bakeoff: string;
  /** sha256 over every stored run record and the sha256 of every artifact file on disk. */
  readonly content: string;
  readonly suiteDir: string;
  readonly suiteHash: string;
  /** sha256 of the suite's lock file (expected tests, the verdicts grading compares against). */
  readonly lock: string;
  /** The sandbox backend the tests ran in, by name (a re-check in one never stands in for one in another). */
  readonly sandbox: string;
}

/**
 * The key a stamp must have to stand for a re-check of a results folder now, with this suite
 * and sandbox: `runs` are every run its store holds, `onDisk` the digests of each one's artifacts
 * as they are now (the ones the re-check compares: each file is hashed once per verify).
 */
export async function stampKeyOf(options: {
  readonly runs: readonly RunRecord[];
  readonly onDisk: ReadonlyMap<string, readonly ArtifactDigest[]>;
  readonly suite: { readonly dir: string; readonly hash: string };
  readonly sandbox: string;
}): Promise<StampKey> {
  const { runs, onDisk, suite, sandbox } = options;
  const parts = runs.map((run) => JSON.stringify([run, onDisk.get(run.id) ?? []]));
  const lock = await readFile(path.join(suite.dir, LOCK_FILE)).catch(() => Buffer.alloc(0));
  return { bakeoff: BAKEOFF_VERSION, content: sha256(parts.join('\n')), suiteDir: suite.dir, suiteHash: suite.hash, lock: sha256(lock), sandbox };
}

/** Writes the stamp of a clean re-check (written beside, then renamed: never half a file). */
export async function writeVerifyStamp(resultsDir: string, key: StampKey, result: StampedResult): Promise<void> {
  const file = path.join(resultsDir, VERIFY_STAMP_FILE);
  const stamp: VerifyStamp = { schemaVersion: 1, key, at: new Date().toISOString(), result };
  await writeFile(`${file}.tmp-${process.pid}`, JSON.stringify(stamp) + '\n');
  await rename(`${file}.tmp-${process.pid}`, file);
}

/** The stamped re-check when its key is `key` (same bakeoff, same content, same suite and lock); else null. */
export async function readVerifyStamp<R extends StampedResult>(resultsDir: string, key: StampKey): Promise<{ readonly at: string; readonly result: R } | null> {
  let stamp: VerifyStamp;
  try {
    stamp = JSON.parse(await readFile(path.join(resultsDir, VERIFY_STAMP_FILE), 'utf8')) as VerifyStamp;
  } catch {
    return null;
  }
  if (stamp.schemaVersion !== 1 || JSON.stringify(stamp.key) !== JSON.stringify(key)) return null;
  if (stamp.result.mismatches !== 0 || stamp.result.unverified !== 0) return null;
  return { at: stamp.at, result: stamp.result as R };
}
