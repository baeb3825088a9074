import path from 'node:path';
import { importExercism as writeExercismTasks, type ImportedExercise, type ImportExercismOptions } from '../importers/index.js';
import { cwdOf, type Place } from './paths.js';

export interface ImportExercismRequest extends Place, Omit<ImportExercismOptions, 'suiteDir'> {
  readonly suite: string;
}

/** `bakeoff import exercism`: one task per exercise of a track folder (see importers' importExercism); admission is the caller's next step. */
export function importExercism(request: ImportExercismRequest): Promise<ImportedExercise[]> {
  const cwd = cwdOf(request);
  const { suite, track, ...rest } = request;
  return writeExercismTasks({ ...rest, track: path.resolve(cwd, track), suiteDir: path.resolve(cwd, suite) });
}
