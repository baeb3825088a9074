import { loadSuite } from '../../suite/load-suite.js';
import { escapeControl } from '../../util/escape-control.js';
import { isolationFor } from '../isolation-for.js';
import { createNotes } from '../notes.js';
import { requireTools } from '../../sandbox/require-tools.js';
import { validateSuite } from '../../suite/validate-suite.js';
import { cacheDir, EXIT, type CliIo } from '../io.js';

export interface ValidateFlags {
  readonly json: boolean;
  readonly concurrency: number;
  readonly unsafeNoSandbox: boolean;
}

/** `bakeoff validate <suite>`: admission checks, suite hash, TASKS.md and the lock file. */
export async function validateCommand(dir: string, flags: ValidateFlags, io: CliIo): Promise<number> {
  await requireTools(['bwrap', 'faketime', 'git']);
  const suite = await loadSuite(dir);
  const notes = createNotes(io.stderr);
  const result = await validateSuite(suite, {
    isolation: await isolationFor(suite.controls, flags.unsafeNoSandbox, notes),
    cacheDir: cacheDir(io),
    concurrency: flags.concurrency,
    onTaskEnd: (task, a) => {
      if (!flags.json) io.stderr.write(a.admitted ? `  admitted  ${task}\n` : `  REJECTED  ${task}: ${escapeControl(a.reason)}\n`);
    },
  });
  const tasks = result.suite.tasks.map((t) => {
    const a = result.admissions.get(t.id)!;
    return a.admitted
      ? {
          id: t.id,
          admitted: true,
          failToPass: sum(a.orders.map((o) => o.failToPass.length)),
          passToPass: sum(a.orders.map((o) => o.passToPass.length)),
          checks: sum(a.orders.map((o) => o.checkCount ?? 0)),
        }
      : { id: t.id, admitted: false, reason: a.reason };
  });
  const rejected = tasks.filter((t) => !t.admitted).length;
  if (flags.json) {
    const json = { suite: { id: result.suite.id, hash: result.suite.hash }, tasks, lock: result.lockPath, tasksMd: result.tasksMdPath, notes: notes.notes, errors: notes.errors };
    io.stdout.write(JSON.stringify(json, null, 2) + '\n');
  } else {
    const lines = [
      `suite ${result.suite.id}: ${tasks.length - rejected} of ${tasks.length} tasks admitted`,
      ...tasks.map((t) =>
        !t.admitted
          ? `  ✗ ${t.id}  ${escapeControl(t.reason ?? '')}`
          : t.checks
            ? `  ✓ ${t.id}  ${t.checks} generated checks, gold full at seeds ${result.suite.controls.seeds.join(', ')} × levels ${result.suite.controls.levels.join(', ')}`
            : `  ✓ ${t.id}  fail-to-pass ${t.failToPass}  pass-to-pass ${t.passToPass}`,
      ),
      `suite hash ${result.suite.hash}`,
      `wrote ${result.tasksMdPath}`,
      `wrote ${result.lockPath}`,
    ];
    io.stdout.write(lines.join('\n') + '\n');
  }
  return rejected > 0 ? EXIT.checksFailed : EXIT.ok;
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
