import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../errors.js';

/*
 * The one owner of a results folder's layout (issue 32): every path inside a results folder and
 * inside a run's folder comes from here, and no other module spells these names.
 *
 *   <out>/bakeoff.db            SQLite: runs, sessions, checks, controls, bakes, artifacts, requests
 *   <out>/holder.lock           the folder's lock (results-lock.ts); never deleted
 *   <out>/holder.json           who holds the lock; removed on release
 *   <out>/live.json             the runs a bake has at work now (for `bakeoff view`)
 *   <out>/runs/<run-id>/        one run's folder (its artifacts)
 *   <out>/runs/.tmp-*           a run being written; removed on open
 *
 * A run's folder, one sub-folder per order:
 *   order-<n>/prompt.md              the prompt the agent got
 *   order-<n>/agent.log              the agent's stdout+stderr (a model agent's stderr)
 *   order-<n>/stream.jsonl           a model agent's machine-readable stream (its stdout)
 *   order-<n>/model-responses.jsonl  every model answer as the CLI got it (a recorded session)
 *   order-<n>/network.json           with --trace-network: every address the CLI tried
 *   order-<n>/at-kill.txt            what the session's processes were doing when it was killed
 *   order-<n>/change.patch           the cumulative change after this order (binary-safe)
 *   order-<n>/change-refused.json    why the change was refused before it became a patch
 *                                    (StoredRefusal); folders written before it have
 *                                    change-refused.txt (`<reason>: <message>`), still read
 *   order-<n>/grade/                 test-output.log and report/ (the runner's raw report), or
 *                                    checks.json (every check's input, expected value and result)
 *   order-<n>/grade-attempt-1/       the first test run's, when it timed out while the machine
 *                                    starved it and was re-run (decision 011); grade/ holds the re-run's
 */

/** The names of a results folder's own files. */
const RESULTS = { database: 'bakeoff.db', runs: 'runs', lock: 'holder.lock', holder: 'holder.json', live: 'live.json' } as const;

/** The prefix of a run folder being written (`runs/.tmp-<run-id>-<pid>-<ms>`). */
const TEMP_PREFIX = '.tmp-';

/** The names of an order folder's files. */
const ORDER = {
  prompt: 'prompt.md',
  agentLog: 'agent.log',
  stream: 'stream.jsonl',
  modelResponses: 'model-responses.jsonl',
  network: 'network.json',
  atKill: 'at-kill.txt',
  change: 'change.patch',
  refusal: 'change-refused.json',
  oldRefusal: 'change-refused.txt',
  grade: 'grade',
} as const;

/** The names of a grade folder's files (the grading of one order writes them). */
const GRADE = { testOutput: 'test-output.log', report: 'report', checks: 'checks.json' } as const;

/**
 * Every file and folder name of the layout. test/architecture/run-folder-names.test.ts fails
 * when a `src/` module other than this one spells one of them in a string.
 */
export const RUN_FOLDER_NAMES: readonly string[] = [...Object.values(RESULTS), ...Object.values(ORDER), ...Object.values(GRADE), 'order-', 'grade-attempt-'];

export type OrderFile = keyof typeof ORDER;

/** The paths of a results folder `dir`. */
export function resultsPaths(dir: string): { readonly database: string; readonly runsDir: string; readonly lock: string; readonly holder: string; readonly live: string } {
  return {
    database: path.join(dir, RESULTS.database),
    runsDir: path.join(dir, RESULTS.runs),
    lock: path.join(dir, RESULTS.lock),
    holder: path.join(dir, RESULTS.holder),
    live: path.join(dir, RESULTS.live),
  };
}

/** The name of the database file, for messages (`not a results folder (no bakeoff.db)`). */
export const DATABASE_NAME = RESULTS.database;

/** A run's folder under `runsDir`. */
export function runDir(runsDir: string, runId: string): string {
  return path.join(runsDir, runId);
}

/** A run's folder relative to the results folder (`runs/<id>/`), for notes to a reader. */
export function runDirInResults(runId: string): string {
  return `${RESULTS.runs}/${runId}/`;
}

/** A temp folder for run `runId` being written under `runsDir`. */
export function runTempDir(runsDir: string, runId: string): string {
  return path.join(runsDir, `${TEMP_PREFIX}${runId}-${process.pid}-${Date.now()}`);
}

/** True for the name of a half-written run folder. */
export function isRunTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX);
}

/** The folder name of order `order` (`order-1`). */
export function orderDirName(order: number): string {
  return `order-${order}`;
}

/** The order folders a run folder holds, by number (ascending); none when the folder is missing. */
export async function ordersIn(runFolder: string): Promise<number[]> {
  const names = await readdir(runFolder).catch(() => [] as string[]);
  return names.flatMap((n) => (/^order-\d+$/.test(n) ? [Number(n.slice('order-'.length))] : [])).sort((a, b) => a - b);
}

/** The folder of order `order` inside the run folder `runFolder`. */
export function orderDir(runFolder: string, order: number): string {
  return path.join(runFolder, orderDirName(order));
}

/** The folder of order `order` of run `runId` under `runsDir`. */
export function runOrderDir(runsDir: string, runId: string, order: number): string {
  return orderDir(runDir(runsDir, runId), order);
}

/** The path of one file of an order folder. */
export function orderFile(orderFolder: string, file: OrderFile): string {
  return path.join(orderFolder, ORDER[file]);
}

/** The bare name of one file of an order folder (`change.patch`), for labels. */
export function orderFileName(file: OrderFile): string {
  return ORDER[file];
}

/** Where the files of a run's order are, relative to the results folder (`runs/<id>/order-1/change.patch`), for notes to a reader. */
export function orderFilesInResults(runId: string, order: number): OrderFilesInResults {
  const at = (...parts: string[]): string => [RESULTS.runs, runId, orderDirName(order), ...parts].join('/');
  return { prompt: at(ORDER.prompt), patch: at(ORDER.change), agentLog: at(ORDER.agentLog), stream: at(ORDER.stream), testOutput: at(ORDER.grade, GRADE.testOutput), checks: at(ORDER.grade, GRADE.checks) };
}

/** See {@link orderFilesInResults}. */
export interface OrderFilesInResults {
  readonly prompt: string;
  readonly patch: string;
  readonly agentLog: string;
  readonly stream: string;
  readonly testOutput: string;
  readonly checks: string;
}

/** The files an order's grading writes into its grade folder `gradeFolder`. */
export function gradeFiles(gradeFolder: string): { readonly testOutput: string; readonly report: string; readonly checks: string } {
  return { testOutput: path.join(gradeFolder, GRADE.testOutput), report: path.join(gradeFolder, GRADE.report), checks: path.join(gradeFolder, GRADE.checks) };
}

/** Where grade folder `gradeFolder` is kept when its test run is run again (`grade-attempt-1`). */
export function gradeAttemptDir(gradeFolder: string, attempt: number): string {
  return `${gradeFolder}-attempt-${attempt}`;
}

/** Files of an order folder a reader may search, relative to it: prompt, agent output, stream, change, test output. */
export const SEARCHABLE_ORDER_FILES: readonly string[] = [ORDER.prompt, ORDER.agentLog, ORDER.stream, ORDER.change, `${ORDER.grade}/${GRADE.testOutput}`];

/**
 * Why an order's change was refused before it became a patch (`change-refused.json`): the
 * fail reason (`change-too-large`, `unsupported-file`, `patch-did-not-apply`, `grading-error`),
 * the paths that made it so where known, and the message as the run's outcome says it.
 */
export interface StoredRefusal {
  readonly reason: string;
  readonly paths: readonly string[];
  readonly message: string;
}

/** Writes the refusal of the order folder `orderFolder` as `change-refused.json`. */
export async function writeRefusal(orderFolder: string, refusal: StoredRefusal): Promise<void> {
  const data = { schemaVersion: 1, reason: refusal.reason, paths: refusal.paths, message: refusal.message };
  await writeFile(orderFile(orderFolder, 'refusal'), JSON.stringify(data, null, 2) + '\n');
}

/**
 * The refusal stored in the order folder `orderFolder`: `change-refused.json`, or in a folder
 * written before it, `change-refused.txt` (`<reason>: <message>`, no paths). Null when there is
 * neither, or the old text is no refusal. A damaged `change-refused.json` is an InputError
 * naming the file, the field, what was expected and what was found.
 */
export async function readRefusal(orderFolder: string): Promise<StoredRefusal | null> {
  const file = orderFile(orderFolder, 'refusal');
  const text = await readIfThere(file);
  if (text !== null) return parseRefusal(file, text);
  const old = await readIfThere(orderFile(orderFolder, 'oldRefusal'));
  if (old === null) return null;
  const colon = old.indexOf(': ');
  if (colon <= 0) return null;
  return { reason: old.slice(0, colon), paths: [], message: old.slice(colon + 2).replace(/\n$/, '') };
}

function parseRefusal(file: string, text: string): StoredRefusal {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError([{ file, field: '(file)', expected: 'JSON', received: (error as Error).message }]);
  }
  const bad = (field: string, expected: string, got: unknown): never => {
    throw new InputError([{ file, field, expected, received: JSON.stringify(got) ?? String(got) }]);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return bad('(file)', 'an object', data);
  const o = data as Record<string, unknown>;
  if (o.schemaVersion !== 1) bad('schemaVersion', '1', o.schemaVersion);
  if (typeof o.reason !== 'string' || o.reason === '') bad('reason', 'a fail reason', o.reason);
  if (typeof o.message !== 'string') bad('message', 'a string', o.message);
  if (!Array.isArray(o.paths) || !o.paths.every((p) => typeof p === 'string')) bad('paths', 'an array of strings', o.paths);
  return { reason: o.reason as string, paths: o.paths as string[], message: o.message as string };
}

async function readIfThere(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
