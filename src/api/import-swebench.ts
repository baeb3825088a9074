import path from 'node:path';
import { importSwebench as writeSwebenchTasks, type ImportedInstance, type ImportSwebenchOptions } from '../importers/index.js';
import { cwdOf, type Place } from './paths.js';

export interface ImportSwebenchRequest extends Place, Omit<ImportSwebenchOptions, 'suiteDir'> {
  readonly suite: string;
}

/**
 * `bakeoff import swebench`: one task per instance (see importers' importSwebench). Admission
 * is the caller's next step (`validate({ suite, tasks })`; the CLI runs it): it checks that
 * the instance's FAIL_TO_PASS / PASS_TO_PASS are what bakeoff finds.
 */
export function importSwebench(request: ImportSwebenchRequest): Promise<ImportedInstance[]> {
  const cwd = cwdOf(request);
  const { suite, source, repos, ...rest } = request;
  return writeSwebenchTasks({ ...rest, source: path.resolve(cwd, source), repos: path.resolve(cwd, repos), suiteDir: path.resolve(cwd, suite) });
}
