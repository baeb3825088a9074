import { UserError } from '../../errors.js';
import { validate, type ValidateOutcome } from '../../api/validate.js';
import type { LockWrite } from '../../api/index.js';
import { escapeControl } from '../../util/index.js';
import { printNote } from '../notes.js';
import { createProgress, setupText } from '../progress.js';
import { VALIDATE_OPTIONS, type ValidateFlags } from '../command-options.js';
import { EXIT, placeOf, sandboxRequest, type CliIo } from '../io.js';
import { requestOf } from '../option-table.js';

/**
 * The flags of a validate that a command writing tasks runs on what it wrote: its own output,
 * concurrency and sandbox; the tasks it wrote only when the suite has a lock (else all of them,
 * which makes the first lock). Writes the lock only where the verdicts are stable.
 */
export function validateWrittenFlags(flags: Pick<ValidateFlags, 'json' | 'concurrency' | 'sandbox' | 'unsafeNoSandbox'>, written: readonly string[], hasLock: boolean): ValidateFlags {
  return { json: flags.json, concurrency: flags.concurrency, ...sandboxRequest(flags), updateLock: false, check: false, recheck: false, task: hasLock ? written : [], hacker: [] };
}

/**
 * `bakeoff validate <suite>`: admission checks, suite hash, TASKS.md and the lock file.
 * Exit 1 when a task is rejected, when the verdicts differ from the lock of the same suite and
 * were not written (no `--update-lock`), and with `--check` on any difference from the lock.
 * `observeDrafts` (task from-commit, task mine --add): the tasks whose draft prompts get what
 * their admission observed, the suite then validated again (api validate's `observeDrafts`).
 */
export async function validateCommand(dir: string, flags: ValidateFlags, io: CliIo, extraJson: Readonly<Record<string, unknown>> = {}, observeDrafts: readonly string[] = []): Promise<number> {
  if (flags.check && flags.updateLock) throw new UserError('--check writes nothing and --update-lock writes the lock: give one of them, not both');
  const { result, notes } = await checkSuite(dir, flags, io, observeDrafts);
  const lockWrite = lockWriteOf(flags);
  const { tasks, rejected, comparison, written } = result;
  if (result.keptVerdicts.length > 0) {
    const n = result.keptVerdicts.length;
    notes.note(
      `${n === tasks.length ? 'every task' : `${n} of ${tasks.length} tasks`} unchanged since this machine admitted ${n === 1 ? 'it' : 'them'} ` +
        `(same task hash, controls, prepared repo, sandbox and runtimes): kept ${n === 1 ? 'its admission' : 'their admissions'} (${result.keptVerdicts.join(', ')}); --recheck runs every check again`,
    );
  }
  const lockLines = describeLock(result, lockWrite, dir);
  if (flags.json) {
    const lock = { status: comparison.status, written, differences: comparison.differences, ...(comparison.lockedHash ? { lockedHash: comparison.lockedHash } : {}), ...(comparison.problem ? { problem: comparison.problem } : {}) };
    const json = { schemaVersion: 1, ...extraJson, suite: { id: result.suite.id, hash: result.suite.hash }, tasks, keptVerdicts: result.keptVerdicts, lock: result.lockPath, tasksMd: result.tasksMdPath, lockComparison: lock, notes: notes.notes, errors: notes.errors };
    io.stdout.write(JSON.stringify(json, null, 2) + '\n');
    if (comparison.status === 'differs' || comparison.status === 'unreadable') for (const l of lockLines) notes.note(l.trim());
  } else {
    const lines = [
      `suite ${result.suite.id}: ${tasks.length - rejected} of ${tasks.length} tasks admitted`,
      ...tasks.flatMap((t) => [
        !t.admitted
          ? `  ✗ ${t.id}  ${escapeControl(t.reason)}`
          : t.checks
            ? `  ✓ ${t.id}  ${t.checks} generated checks, gold full at seeds ${result.suite.controls.seeds.join(', ')} × levels ${result.suite.controls.levels.join(', ')}`
            : `  ✓ ${t.id}  fail-to-pass ${t.failToPass}  pass-to-pass ${t.passToPass}`,
        ...t.notes.map((n) => `      ${n}`),
        ...(t.admitted ? [] : t.logs.map((l) => `      log kept: ${l}`)),
        ...(t.admitted ? [] : (t.evidence ?? []).map((e) => `      evidence kept: ${e}`)),
      ]),
      `suite hash ${result.suite.hash}`,
      ...lockLines,
    ];
    io.stdout.write(lines.join('\n') + '\n');
  }
  return result.ok ? EXIT.ok : EXIT.checksFailed;
}

function lockWriteOf(flags: ValidateFlags): LockWrite {
  return flags.check ? 'never' : flags.updateLock ? 'update' : 'stable';
}

/** The validation, its progress on stderr (a fresh progress when it validates again: the notes kept are the last pass's). */
async function checkSuite(dir: string, flags: ValidateFlags, io: CliIo, observeDrafts: readonly string[]): Promise<{ result: ValidateOutcome; notes: ReturnType<typeof createProgress>['notes'] }> {
  const newProgress = (): ReturnType<typeof createProgress> => createProgress(io.stderr, !flags.json, { noun: 'tasks', tallies: ['admitted', 'rejected'] });
  let progress = newProgress();
  let result: ValidateOutcome;
  try {
    result = await validate({
      suite: dir,
      ...placeOf(io),
      ...requestOf(VALIDATE_OPTIONS, flags),
      lockWrite: lockWriteOf(flags),
      ...sandboxRequest(flags),
      ...(observeDrafts.length > 0 ? { observeDrafts } : {}),
      onEvent: (event) => {
        if (printNote(progress.notes, event)) return;
        if (event.type === 'validate-again') {
          progress.finish();
          progress = newProgress();
          return;
        }
        if (event.type === 'plan') progress.start(event.total, event.kept);
        else if (event.type === 'task-start') progress.itemStarted(event.task, event.task);
        else if (event.type === 'task-stage') progress.itemStage(event.task, event.stage);
        else if (event.type === 'setup-progress') progress.itemStage(event.task, `setup: ${setupText(event.progress)}`);
        else {
          const a = event.admission;
          progress.itemEnded(event.task, event.task, a.admitted ? { verdict: 'admitted', tally: ['admitted'] } : { verdict: 'REJECTED', tally: ['rejected'], detail: a.reason });
        }
      },
    });
  } finally {
    progress.finish();
  }
  return { result, notes: progress.notes };
}

/** Differences from the lock listed in the terminal; --json lists all. */
const MAX_SHOWN = 12;

/** What happened to the lock and TASKS.md, and why, in lines for the terminal. */
function describeLock({ suite, comparison, written, lockPath, tasksMdPath }: ValidateOutcome, mode: LockWrite, dir: string): string[] {
  const shown = comparison.differences.slice(0, MAX_SHOWN).map((d) => `  changed  ${d.task}: ${d.change}`);
  const hidden = comparison.differences.length - shown.length;
  const changes = hidden > 0 ? [...shown, `  … and ${hidden} more (all of them: --json)`] : shown;
  const outcome = written ? [`wrote ${tasksMdPath}`, `wrote ${lockPath}`] : [`wrote nothing: ${lockPath} and ${tasksMdPath} are as they were`];
  const rerun = `run \`bakeoff validate ${dir} --update-lock\` to write the new verdicts, after checking why they changed`;
  switch (comparison.status) {
    case 'created':
      return [mode === 'never' ? `no lock file yet (${lockPath})` : 'no lock file before: the verdicts are new', ...outcome];
    case 'unchanged':
      return ['the verdicts are those in the lock', ...outcome];
    case 'suite-changed':
      return [`the suite changed since the lock was written (suite hash ${comparison.lockedHash!.slice(0, 12)}… → ${suite.hash.slice(0, 12)}…): the verdicts belong to the new suite`, ...changes, ...outcome];
    case 'unreadable':
      return [`the lock file cannot be read: ${comparison.problem}`, ...outcome, ...(written ? [] : [rerun])];
    case 'differs':
      return [
        `the verdicts differ from the lock of this same suite (${comparison.differences.length} difference${comparison.differences.length === 1 ? '' : 's'}):`,
        ...changes,
        ...outcome,
        ...(written ? ['(--update-lock: the new verdicts replace the old ones)'] : [rerun]),
      ];
  }
}
