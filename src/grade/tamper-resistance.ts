import { readFile } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { findTestCases, getTestRunner } from '../runners/index.js';
import type { Task } from '../suite/index.js';
import { groupFileOf } from './place-tripwires.js';
import { groupOdds, type GroupFile } from './tripwire-groups.js';

/*
 * What the tripwires of a task can stand against (docs/decisions/002), for its line of
 * TASKS.md: "full" when every order's fail-to-pass tests give groups enough that code picking
 * one test of each group blindly passes at most once in FULL_ODDS gradings, and no
 * fail-to-pass test lives in a file the runner cannot hold tripwires in (a whole-file test);
 * "partial, runner <format>: why" otherwise.
 */

/** Fewest ways a blind pick must have, over an order's groups, for "full". */
export const FULL_ODDS = 100;

export interface TamperResistance {
  readonly level: 'full' | 'partial';
  /** The TASKS.md text: `full (…)` or `partial, runner tap: …`. */
  readonly text: string;
}

/** The file part of a test id (every runner's ids start with the file; a whole-file test's id is the file). */
function fileOf(id: string): string {
  return id.split('::')[0]!;
}

/** The tamper resistance of an admitted task graded by tests, from its files and the lock's fail-to-pass ids. */
export async function tamperResistance(task: Task, orders: readonly { readonly order: number; readonly failToPass: readonly string[]; readonly passToPass: readonly string[] }[]): Promise<TamperResistance> {
  const { format } = task.manifest.test;
  const runner = getTestRunner(format);
  const isTest = picomatch([...(task.manifest.test.files ?? runner.testFiles)], { dot: true });
  const problems: string[] = [];
  let worst = Infinity;
  let groups = Infinity;
  for (const { order, failToPass, passToPass } of orders) {
    const where = orders.length > 1 ? `order ${order}: ` : '';
    const files = await graded(task, order, failToPass, isTest);
    const unwired = files.filter((f) => runner.holdsTripwires && !runner.holdsTripwires(f.text, f.rel)).map((f) => f.rel);
    const wholeFile = failToPass.filter((id) => unwired.includes(fileOf(id)));
    if (wholeFile.length > 0) problems.push(`${where}${wholeFile.length} fail-to-pass test(s) in files that hold no tripwires (${unwired.join(', ')}): judged by their exit status alone`);
    const groupFiles: GroupFile[] = [];
    for (const f of files) {
      if (unwired.includes(f.rel)) continue;
      const g = groupFileOf(runner, f.rel, f.text, await findTestCases(f.rel, f.text));
      if (g) groupFiles.push(g);
    }
    const odds = groupOdds(groupFiles, failToPass, [...passToPass, ...task.manifest.knownFailures.map((k) => k.id)]);
    worst = Math.min(worst, odds.odds);
    groups = Math.min(groups, odds.groups);
    if (odds.groups === 0) problems.push(`${where}no fail-to-pass test compares with a literal bakeoff can vary, or a draw leaves every group out (its values would single out its test): then only wires, which code reading the test files can tell apart`);
    else if (odds.odds < FULL_ODDS) problems.push(`${where}${odds.groups} tripwire group(s): a blind pick passes 1 in ${odds.odds}`);
  }
  if (problems.length > 0) return { level: 'partial', text: `partial, runner ${format}: ${problems.join('; ')}` };
  return { level: 'full', text: `full (${groups} tripwire groups or more per order; a blind pick passes at most 1 in ${worst})` };
}

/** The order's graded test files with their text: its hidden test files (and earlier orders'), else the files of its fail-to-pass tests in the repo. */
async function graded(task: Task, order: number, failToPass: readonly string[], isTest: (rel: string) => boolean): Promise<{ rel: string; text: string }[]> {
  const hidden = new Map<string, string>();
  for (const o of task.orders.filter((o) => o.index <= order)) for (const rel of o.hiddenFiles) hidden.set(rel, path.join(o.hiddenDir, rel));
  const rels = [...hidden.keys()].filter(isTest);
  const chosen = rels.length > 0 ? rels : [...new Set(failToPass.map(fileOf))].filter(isTest);
  const out: { rel: string; text: string }[] = [];
  for (const rel of chosen.sort()) {
    const text = await readFile(hidden.get(rel) ?? path.join(task.repoDir, rel), 'utf8').catch(() => null);
    if (text !== null) out.push({ rel, text });
  }
  return out;
}
