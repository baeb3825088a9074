import type { TaskAdmission } from './types.js';
import type { Suite } from './types.js';

/**
 * TASKS.md: the human contract of a suite, one row per task. `resistance`: what each admitted
 * task's tripwires stand against (grading's `tamperResistance`), by task id. Pure.
 */
export function renderTasksMd(suite: Suite, admissions: ReadonlyMap<string, TaskAdmission>, resistance: ReadonlyMap<string, string> = new Map()): string {
  const rows = suite.tasks.map((task) => {
    const a = admissions.get(task.id);
    const byChecks = task.manifest.grading === 'checks';
    const f2p = a?.admitted && !byChecks ? sum(a.orders.map((o) => o.failToPass.length)) : '–';
    const p2p = a?.admitted && !byChecks ? sum(a.orders.map((o) => o.passToPass.length)) : '–';
    const gradedBy = byChecks
      ? `${a?.admitted ? sum(a.orders.map((o) => o.checkCount ?? 0)) : '?'} generated checks`
      : `hidden tests (${task.manifest.test.format})`;
    const admittedAs = [
      ...(a?.admitted && a.adversarialExploits ? [`adversarial: ${a.adversarialExploits} exploits${hackersOf(a.adversarialHackers)} failed`] : []),
      ...(a?.admitted && a.clockNotMoved ? [`date check moved the time zone only: ${a.clockNotMoved}`] : []),
    ];
    const status = a?.admitted ? (admittedAs.length > 0 ? `admitted (${admittedAs.join('; ')})` : 'admitted') : `rejected: ${a?.reason ?? 'not validated'}`;
    const own = [...suite.controls.protectedPaths, ...task.manifest.protectedPaths];
    const known = task.manifest.knownFailures.length;
    return [task.id, task.manifest.kind, task.manifest.language, task.manifest.summary, task.orders.length, gradedBy, f2p, p2p, known, own.map((p) => `\`${p}\``).join(' ') || '–', resistance.get(task.id) ?? '–', status];
  });
  return [
    `# ${suite.id} — tasks`,
    '',
    suite.manifest.description,
    '',
    `Suite hash: \`${suite.hash}\``,
    '',
    'Written by `bakeoff validate`; do not edit. F→P: hidden tests that fail on the unchanged repo and must pass.',
    'P→P: tests that pass before and must keep passing. Known failures: tests that fail at this commit whatever',
    'the change, expected of no run (listed below). Besides the protected paths listed, no order may change',
    'test-runner configuration (docs/runner-configuration.md) or hold compiled or binary files. Tamper resistance:',
    "what bakeoff's tripwire tests stand against (docs/decisions/002): full, or partial with the runner and why.",
    ...adversarialLines(suite, admissions),
    '',
    '| task | kind | language | summary | orders | graded by | F→P | P→P | known failures | protected paths | tamper resistance | status |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`),
    '',
    ...knownFailureLines(suite),
  ].join('\n');
}

/** Whether admission included the exploit library (validate --adversarial), and how many exploits it tried. */
function adversarialLines(suite: Suite, admissions: ReadonlyMap<string, TaskAdmission>): string[] {
  const admitted = suite.tasks.map((t) => admissions.get(t.id)).filter((a) => a?.admitted === true);
  const tried = admitted.map((a) => a.adversarialExploits ?? 0);
  if (tried.every((n) => n === 0)) return [];
  const all = tried.every((n) => n > 0);
  return [
    `Adversarial admission: ${all ? 'every admitted task' : `${tried.filter((n) => n > 0).length} of ${admitted.length} admitted tasks`} also faced ${Math.max(...tried)} exploits of bakeoff's library ` +
      '(agents that know nothing of the task and try to be graded solved without fixing it); a task on which any was graded solved or void was rejected.' +
      (admitted.some((a) => a.adversarialHackers?.length) ? ' Hacker agents (model agents told to make the tests pass without fixing the problem) faced the tasks their status names, under the same rule.' : ''),
  ];
}

/** The hackers (validate --hacker) that also failed on a task, as a phrase after the exploits. */
function hackersOf(hackers: readonly string[] | undefined): string {
  return hackers && hackers.length > 0 ? ` and ${hackers.map((h) => `\`${h}\``).join(', ')}` : '';
}

function knownFailureLines(suite: Suite): string[] {
  const lines = suite.tasks.flatMap((task) => task.manifest.knownFailures.map((k) => `- \`${task.id}\`: \`${k.id}\` — ${k.reason}`));
  return lines.length === 0 ? [] : ['## Known failures', '', ...lines, ''];
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
