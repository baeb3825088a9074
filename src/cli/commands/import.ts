import path from 'node:path';
import { importExercism } from '../../api/import-exercism.js';
import { importHarbor } from '../../api/harbor.js';
import { importSwebench } from '../../api/import-swebench.js';
import { UserError } from '../../errors.js';
import { escapeControl, exists } from '../../util/index.js';
import { IMPORT_SWEBENCH_OPTIONS, type ImportExercismFlags, type ImportHarborFlags, type ImportSwebenchFlags } from '../command-options.js';
import { EXIT, type CliIo } from '../io.js';
import { requestOf } from '../option-table.js';
import { validateCommand, validateWrittenFlags } from './validate.js';



/**
 * `bakeoff import swebench <instances>`: writes a task per instance, lists the refused ones
 * with their reasons, then runs the admission checks on the written ones (which compare the
 * instance's FAIL_TO_PASS / PASS_TO_PASS with what bakeoff finds) and exits as validate does;
 * exit 2 when no instance could be written.
 */
export async function importSwebenchCommand(source: string, flags: ImportSwebenchFlags, io: CliIo): Promise<number> {
  const suite = flags.suite ?? (await defaultSuite(io.cwd));
  const results = await importSwebench({
    cwd: io.cwd,
    env: io.env,
    source,
    ...requestOf(IMPORT_SWEBENCH_OPTIONS, flags),
    suite,
    only: flags.instance,
    ...(flags.setup !== undefined ? { setup: flags.setup === 'none' ? null : flags.setup } : {}),
  });
  const lines = results.flatMap((r) =>
    r.written
      ? [
          `wrote ${relative(io.cwd, r.taskDir)} from ${r.instanceId}`,
          `  hidden tests (orders/1/hidden/, from test_patch): ${r.hidden.join(', ')}`,
          `  test: ${r.command} (format ${r.format}); setup: ${r.setup ?? '(none)'}`,
          `  prompt.md is the instance's problem_statement: the issue as its author wrote it, not a draft`,
        ]
      : [`refused ${r.instanceId}: ${r.reason}`],
  );
  const written = results.filter((r) => r.written);
  (flags.json ? io.stderr : io.stdout).write(lines.map((l) => escapeControl(l)).join('\n') + '\n');
  return validateWritten(suite, written.map((r) => r.id), flags, io, { imported: { source: 'swebench', instances: results } });
}


/** `bakeoff import exercism <track>`: a task per exercise, then the admission checks on them (exit as validate; 2 when none was written). */
export async function importExercismCommand(track: string, flags: ImportExercismFlags, io: CliIo): Promise<number> {
  const suite = flags.suite ?? (await defaultSuite(io.cwd));
  const exercises = (flags.exercises ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const results = await importExercism({ cwd: io.cwd, env: io.env, track, suite, exercises });
  const lines = results.flatMap((r) =>
    r.written
      ? [
          `wrote ${relative(io.cwd, r.taskDir)} from exercise ${r.slug}`,
          `  hidden tests: ${r.hidden.join(', ')} (${r.unskipped} skipped test${r.unskipped === 1 ? '' : 's'} switched on)`,
          `  test: ${r.command}; setup: ${r.setup ?? '(none)'}`,
          `  prompt.md is the exercise's .docs (the track's words, not a draft); gold.patch is its example solution`,
        ]
      : [`refused ${r.slug}: ${r.reason}`],
  );
  (flags.json ? io.stderr : io.stdout).write(lines.map((l) => escapeControl(l)).join('\n') + '\n');
  return validateWritten(suite, results.flatMap((r) => (r.written ? [r.id] : [])), flags, io, { imported: { source: 'exercism', exercises: results } });
}

/** `bakeoff import harbor <folder>`: Harbor task folders bakeoff can run without Docker, then the admission checks on them. */
export async function importHarborCommand(source: string, flags: ImportHarborFlags, io: CliIo): Promise<number> {
  const suite = flags.suite ?? (await defaultSuite(io.cwd));
  const results = await importHarbor({ cwd: io.cwd, env: io.env, source, suite });
  const lines = results.map((r) => (r.written ? `wrote ${relative(io.cwd, r.taskDir)} from ${relative(io.cwd, r.folder)} (${r.orders} order${r.orders === 1 ? '' : 's'})` : `refused ${relative(io.cwd, r.folder)}: ${r.reason}`));
  (flags.json ? io.stderr : io.stdout).write(lines.map((l) => escapeControl(l)).join('\n') + '\n');
  return validateWritten(suite, results.flatMap((r) => (r.written ? [r.id] : [])), flags, io, { imported: { source: 'harbor', tasks: results } });
}

/** Runs the admission checks on the tasks an import wrote (the whole suite when it has no lock yet); exit 2 when it wrote none. */
export async function validateWritten(suite: string, ids: readonly string[], flags: ImportHarborFlags, io: CliIo, extraJson: Readonly<Record<string, unknown>>): Promise<number> {
  if (ids.length === 0) {
    io.stderr.write('bakeoff: nothing was imported (every item was refused, reasons above)\n');
    return EXIT.usage;
  }
  (flags.json ? io.stderr : io.stdout).write('admission checks:\n');
  const hasLock = await exists(path.join(path.resolve(io.cwd, suite), 'bakeoff.lock.json'));
  return validateCommand(suite, validateWrittenFlags(flags, ids, hasLock), io, extraJson);
}

export async function defaultSuite(cwd: string): Promise<string> {
  if (await exists(path.join(cwd, 'suite.yaml'))) return '.';
  throw new UserError('--suite DIR: which suite the tasks go to (a folder with suite.yaml, or a new folder to make one in); the current folder has no suite.yaml');
}

export function relative(cwd: string, p: string): string {
  const rel = path.relative(cwd, p);
  return rel.startsWith('..') ? p : rel || '.';
}
