import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../errors.js';
import { mineCommits, taskFromCommit, type MinedCommit, type MineOptions } from '../importers/index.js';
import { cwdOf, type Place } from './paths.js';
import { validate, type TaskVerdict, type ValidateEvent } from './validate.js';

export interface MineTasksRequest extends Place, MineOptions {
  /** Write each candidate as a task into a scratch suite and run the admission checks on them. */
  readonly validate?: boolean;
  /**
   * The suite the admitted candidates go to (`--add`): the scratch suite takes its suite.yaml
   * (controls and all), so each candidate is admitted under the controls it will be run with —
   * and, its admission kept, is not checked again when it is added there.
   */
  readonly addTo?: string;
  readonly concurrency?: number;
  /** The sandbox backend admission runs in, by name (`ValidateRequest.sandbox`). */
  readonly sandbox?: string;
  readonly onEvent?: (event: ValidateEvent) => void;
}

/** A mined commit and, with `validate`, what admission made of it. */
export interface MinedTask extends MinedCommit {
  /** The task id it was written as (validate only). */
  readonly task?: string;
  /** Admission's verdict; a candidate from-commit could not write carries its reason as a rejection. */
  readonly verdict?: TaskVerdict;
}

/**
 * `bakeoff task mine`: the candidate commits of a repository (see importers' mineCommits) and,
 * with `validate`, each candidate written as a task into a scratch suite (defaults for every
 * control) and admitted or rejected by the same checks as any task. The scratch suite is
 * removed; `task from-commit` writes a chosen commit into a real suite.
 */
export async function mineTasks(request: MineTasksRequest): Promise<MinedTask[]> {
  const repo = path.resolve(cwdOf(request), request.repo);
  const mined = await mineCommits({ ...request, repo });
  if (!request.validate) return mined;
  const candidates = mined.filter((m) => m.skipped === null);
  if (candidates.length === 0) return mined;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-mine-'));
  try {
    const suite = path.join(scratch, 'mined');
    if (request.addTo) await takeSuiteManifest(path.resolve(cwdOf(request), request.addTo), suite);
    const written = new Map<string, { task: string } | { error: string }>();
    for (const c of candidates) {
      try {
        const task = await taskFromCommit({ repo, commit: c.sha, suiteDir: suite, id: `c-${c.sha.slice(0, 12)}`, ...(request.tests ? { tests: request.tests } : {}) });
        written.set(c.sha, { task: task.id });
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        written.set(c.sha, { error: error.message });
      }
    }
    const verdicts = new Map<string, TaskVerdict>();
    if ([...written.values()].some((w) => 'task' in w)) {
      const outcome = await validate({
        suite,
        ...(request.cacheDir ? { cacheDir: request.cacheDir } : {}),
        ...(request.env ? { env: request.env } : {}),
        concurrency: request.concurrency ?? 2,
        ...(request.sandbox !== undefined ? { sandbox: request.sandbox } : {}),
        ...(request.onEvent ? { onEvent: request.onEvent } : {}),
      });
      for (const t of outcome.tasks) verdicts.set(t.id, t);
    }
    return mined.map((m): MinedTask => {
      const w = written.get(m.sha);
      if (w === undefined) return m;
      if ('error' in w) return { ...m, verdict: { id: `c-${m.sha.slice(0, 12)}`, admitted: false, reason: w.error, notes: [], logs: [] } };
      return { ...m, task: w.task, ...(verdicts.has(w.task) ? { verdict: verdicts.get(w.task)! } : {}) };
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Writes `target`/suite.yaml as `source`'s (when it has one) under the id `mined`. */
async function takeSuiteManifest(source: string, target: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(path.join(source, 'suite.yaml'), 'utf8');
  } catch {
    return; // a suite --add will make: the defaults, as for the scratch suite
  }
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text);
  doc.set('id', 'mined');
  await mkdir(target, { recursive: true });
  await writeFile(path.join(target, 'suite.yaml'), doc.toString());
}
