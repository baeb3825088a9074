import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError, UserError } from '../errors.js';
import { toInputIssues } from '../util/index.js';
import type { TaskAdmission } from './types.js';
import type { Suite } from './types.js';

/*
 * bakeoff.lock.json, written by `bakeoff validate` next to suite.yaml: the suite hash it
 * validated and, per admitted task and order, the exact test ids grading expects. It holds no
 * timestamps and no scratch paths (`<scratch>` stands in for validate's scratch folder in a
 * rejection reason), so validating an unchanged suite rewrites the same bytes. validate never
 * overwrites a lock of the same suite hash whose verdicts differ unless told (see
 * validate-suite.ts).
 */

export const LOCK_FILE = 'bakeoff.lock.json';

const OrderLock = z.object({
  order: z.number().int().min(1),
  failToPass: z.array(z.string()),
  passToPass: z.array(z.string()),
  /** Checks-graded orders: digest of the generated checks per "<seed>:<level>". */
  checks: z.record(z.string(), z.string()).optional(),
});

/** `taskHash`: the task's own hash when it was validated (lets `validate --task` keep other tasks' verdicts). */
const TaskLock = z.discriminatedUnion('admitted', [
  z.object({
    admitted: z.literal(true),
    orders: z.array(OrderLock).min(1),
    taskHash: z.string().optional(),
    adversarialExploits: z.number().int().min(1).optional(),
    adversarialHackers: z.array(z.string()).min(1).optional(),
    /** Why the date check moved only the time zone, not the clock; absent: both moved. */
    clockNotMoved: z.string().optional(),
  }),
  z.object({ admitted: z.literal(false), reason: z.string(), taskHash: z.string().optional() }),
]);

export const SuiteLock = z.object({
  schemaVersion: z.literal(1),
  /** `controlsDigest`: the controls the verdicts were reached under. */
  suite: z.object({ id: z.string(), hash: z.string().regex(/^[0-9a-f]{64}$/), controlsDigest: z.string().optional() }),
  tasks: z.record(z.string(), TaskLock),
});
export type SuiteLock = z.infer<typeof SuiteLock>;
export type TaskLock = z.infer<typeof TaskLock>;

export async function writeLock(suiteDir: string, lock: SuiteLock): Promise<string> {
  const file = path.join(suiteDir, LOCK_FILE);
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, JSON.stringify(lock, null, 2) + '\n');
  await rename(tmp, file);
  return file;
}

/** The lock built from fresh admissions, tasks in suite order. */
export function lockFromAdmissions(suite: Suite, admissions: ReadonlyMap<string, TaskAdmission>): SuiteLock {
  const tasks = suite.tasks.map((t): [string, TaskLock] => {
    const a = admissions.get(t.id)!;
    if (!a.admitted) return [t.id, { admitted: false, reason: a.reason, taskHash: t.hash }];
    const orders = a.orders.map((o) => ({ order: o.order, failToPass: [...o.failToPass], passToPass: [...o.passToPass], ...(o.checks ? { checks: { ...o.checks } } : {}) }));
    return [t.id, { admitted: true, orders, taskHash: t.hash, ...(a.adversarialExploits ? { adversarialExploits: a.adversarialExploits } : {}), ...(a.adversarialHackers?.length ? { adversarialHackers: [...a.adversarialHackers] } : {}), ...(a.clockNotMoved ? { clockNotMoved: a.clockNotMoved } : {}) }];
  });
  return { schemaVersion: 1, suite: { id: suite.id, hash: suite.hash, controlsDigest: suite.controlsDigest }, tasks: Object.fromEntries(tasks) };
}

/** A lock entry as the admission it records (for TASKS.md when only some tasks are validated again). */
export function admissionFromLock(entry: TaskLock): TaskAdmission {
  if (!entry.admitted) return { admitted: false, reason: entry.reason };
  return {
    admitted: true,
    testSec: 0,
    orders: entry.orders.map((o) => ({ order: o.order, failToPass: o.failToPass, passToPass: o.passToPass, ...(o.checks ? { checks: o.checks } : {}) })),
    ...(entry.adversarialExploits ? { adversarialExploits: entry.adversarialExploits } : {}),
    ...(entry.adversarialHackers ? { adversarialHackers: entry.adversarialHackers } : {}),
    ...(entry.clockNotMoved ? { clockNotMoved: entry.clockNotMoved } : {}),
  };
}

/** What is in a suite's lock file, without judging whether it fits the suite. */
export type LockFileState =
  | { readonly kind: 'missing'; readonly file: string }
  | { readonly kind: 'invalid'; readonly file: string; readonly error: InputError }
  | { readonly kind: 'ok'; readonly file: string; readonly lock: SuiteLock };

/** Reads `<suiteDir>/bakeoff.lock.json`; never throws for a missing or malformed file. */
export async function readLockFile(suiteDir: string): Promise<LockFileState> {
  const file = path.join(suiteDir, LOCK_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { kind: 'missing', file };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { kind: 'invalid', file, error: new InputError([{ file, field: '', expected: 'JSON written by bakeoff validate', received: 'invalid JSON' }]) };
  }
  const parsed = SuiteLock.safeParse(data, { reportInput: true });
  if (!parsed.success) return { kind: 'invalid', file, error: new InputError(toInputIssues(file, parsed.error)) };
  return { kind: 'ok', file, lock: parsed.data };
}

/** Reads the lock and checks it belongs to this exact suite (same hash). */
export async function readLock(suite: Suite): Promise<SuiteLock> {
  const state = await readLockFile(suite.dir);
  if (state.kind === 'missing') throw new UserError(`${state.file}: no lock file; run \`bakeoff validate ${suite.dir}\` first to admit the tasks`);
  if (state.kind === 'invalid') throw state.error;
  const { file, lock } = state;
  if (lock.suite.hash !== suite.hash) {
    throw new UserError(
      `${file}: suite.hash: expected ${suite.hash} (the suite as it is now), received ${lock.suite.hash}; ` +
        `the suite changed since it was validated — run \`bakeoff validate ${suite.dir}\` again`,
    );
  }
  return lock;
}
