import { verify } from '../../api/verify.js';
import type { RunVerification, VerifyResult, OrderPoints, VerdictMismatch } from '../../api/index.js';
import type { Outcome } from '../../types.js';
import { escapeControl } from '../../util/index.js';
import { printNote } from '../notes.js';
import { createProgress } from '../progress.js';
import { runLabel } from './run.js';
import { VERIFY_OPTIONS, type VerifyFlags } from '../command-options.js';
import { EXIT, lockedWork, type CliIo } from '../io.js';
import { requestOf } from '../option-table.js';


/**
 * `bakeoff verify <results>`: re-grade every stored change and re-hash every artifact; one line
 * per mismatching run, then a summary. Exit 1 on any mismatch, 3 when a run could not be
 * re-graded or re-checked (a re-grade that timed out or was starved, twice, and disagreed:
 * decision 011) and nothing mismatched, else 0.
 */
export async function verifyCommand(results: string, flags: VerifyFlags, io: CliIo): Promise<number> {
  const progress = createProgress(io.stderr, !flags.json, { noun: 'runs', tallies: ['mismatches', 'not re-graded'] });
  const { notes } = progress;
  let result: VerifyResult;
  try {
    result = await verify({
      results,
      ...requestOf(VERIFY_OPTIONS, flags),
      ...lockedWork(flags, io),
      onEvent: (event) => {
        if (printNote(notes, event)) return;
        if (event.type === 'plan') progress.start(event.total, 0);
        else if (event.type === 'setup') progress.activity(`setting up ${event.task}`);
        else if (event.type === 'run-start') {
          progress.activity(null);
          progress.itemStarted(event.runId, runLabel(event.task, event.agent, event.replay));
          progress.itemStage(event.runId, 're-grading');
        } else {
          const { run } = event;
          const problems = describeRun(run);
          const verdict = run.error !== null ? 'not re-graded' : problems.length > 0 ? 'MISMATCH' : `matches, ${run.basis === 'checksums' ? 'void (checksums only)' : outcomeText(run.stored, false)}`;
          const tally = run.error !== null ? ['not re-graded'] : problems.length > 0 ? ['mismatches'] : [];
          progress.itemEnded(run.id, runLabel(run.task, run.agent, run.replay), { verdict, tally, ...(problems.length > 0 && run.error === null ? { detail: problems.join('; ') } : {}) });
        }
      },
    });
  } finally {
    progress.finish();
  }
  io.stdout.write(flags.json ? JSON.stringify({ schemaVersion: 1, ...result, notes: notes.notes, errors: notes.errors }, null, 2) + '\n' : renderVerify(result));
  if (result.mismatches > 0) return EXIT.checksFailed;
  return result.unverified > 0 ? EXIT.infra : EXIT.ok;
}

/**
 * The terminal rendering: one line per run with a problem, then the summary, e.g.
 *   run 3f2a… (add, noop): stored solved, re-graded failed (tests-failed: order 1: …); order 1: stored 2/2 points, re-graded 1/2
 *   run 9c1d… (add, gold): artifact <a file of its folder> changed
 *   verified 4 runs: 2 mismatches (3 re-graded, 0 on points only, 1 void: checksums only)
 */
export function renderVerify(result: VerifyResult): string {
  const lines: string[] = [];
  for (const run of result.runs) {
    const problems = describeRun(run);
    if (problems.length > 0) lines.push(escapeControl(`run ${run.id} (${run.task}, ${run.agent}): ${problems.join('; ')}`));
  }
  const count = (basis: RunVerification['basis']): number => result.runs.filter((r) => r.basis === basis && r.error === null).length;
  const parts = [
    `${count('outcome-and-points')} re-graded`,
    `${count('points')} on points only`,
    `${count('checksums')} void: checksums only`,
    ...(result.unverified > 0 ? [`${result.unverified} not re-graded`] : []),
  ];
  const mismatches = result.mismatches === 1 ? '1 mismatch' : `${result.mismatches} mismatches`;
  const s = result.selection;
  const which = s === null ? plural(result.runs.length, 'run') : `${result.runs.length} of ${plural(s.storedRuns, 'run')} (${[...s.tasks.map((t) => `--task ${t}`), ...s.agents.map((a) => `--agent ${a}`)].join(' ')})`;
  lines.push(escapeControl(`verified ${which}: ${mismatches} (${parts.join(', ')})`));
  return lines.join('\n') + '\n';
}

function describeRun(run: RunVerification): string[] {
  return [
    ...run.verdict.map(describeVerdict),
    ...run.artifacts.map((a) => `artifact ${a.path} ${a.change}`),
    ...(run.error !== null ? [run.error.startsWith('could not re-check') ? oneLine(run.error) : `not re-graded: ${oneLine(run.error)}`] : []),
  ];
}

function describeVerdict(m: VerdictMismatch): string {
  if (m.kind === 'outcome') return `stored ${outcomeText(m.stored, false)}, re-graded ${outcomeText(m.regraded, true)}`;
  const points = (p: OrderPoints | null): string => (p ? `${p.points}/${p.maxPoints}` : 'none');
  return `${m.order === null ? 'total' : `order ${m.order}`}: stored ${points(m.stored)} points, re-graded ${points(m.regraded)}`;
}

function outcomeText(o: Outcome, withDetail: boolean): string {
  if (o.kind === 'solved') return 'solved';
  const detail = withDetail && o.detail ? `: ${oneLine(o.detail)}` : '';
  return `${o.kind} (${o.reason}${detail})`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
