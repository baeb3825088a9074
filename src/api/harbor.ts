import path from 'node:path';
import { exportHarbor as writeHarborTasks } from '../export/index.js';
import { importHarbor as writeTasksFromHarbor, type ImportedHarborTask } from '../importers/index.js';
import { loadSuite, readLockFile } from '../suite/index.js';
import { cwdOf, type Place } from './paths.js';

export interface ExportHarborRequest extends Place {
  readonly suite: string;
  readonly out: string;
}

/**
 * `bakeoff export harbor`: the suite's tasks as Harbor task folders (see export's
 * exportHarbor), with the lock's expected tests when the suite has a lock of this same suite.
 * Returns the folders written.
 */
export async function exportHarbor(request: ExportHarborRequest): Promise<{ folders: string[]; suiteHash: string; locked: boolean }> {
  const cwd = cwdOf(request);
  const suite = await loadSuite(path.resolve(cwd, request.suite));
  const state = await readLockFile(suite.dir);
  const lock = state.kind === 'ok' && state.lock.suite.hash === suite.hash ? state.lock : null;
  const folders = await writeHarborTasks({ suite, lock, out: path.resolve(cwd, request.out) });
  return { folders, suiteHash: suite.hash, locked: lock !== null };
}

export interface ImportHarborRequest extends Place {
  readonly source: string;
  readonly suite: string;
}

/** `bakeoff import harbor`: Harbor task folders bakeoff can run without Docker, as tasks (see importers' importHarbor); admission is the caller's next step. */
export function importHarbor(request: ImportHarborRequest): Promise<ImportedHarborTask[]> {
  const cwd = cwdOf(request);
  return writeTasksFromHarbor({ source: path.resolve(cwd, request.source), suiteDir: path.resolve(cwd, request.suite) });
}
