import { readFileSync, statSync } from 'node:fs';
import type { TranscriptEntry } from '../agents/harnesses/index.js';
import { needsSessionClues } from '../report/view/classify-failure.js';
import { BROKEN_SHOWN, toolCluesOf, type FailureEvidence, type SessionClues } from '../report/view/failure-evidence.js';
import { orderFile, runOrderDir, type SessionRow, type Store } from '../store/index.js';
import type { LeaderboardRun } from '../types.js';

/** Streams larger than this are not read for tool clues (a transcript's tool calls are in its first megabytes). */
const MAX_STREAM_BYTES = 32 << 20;

/*
 * What the failure anatomy reads for each run that was not solved:
 *   the store's checks (counted per set and status, check-tallies.ts),
 *   each order's stored change (its size, when the run's lines say nothing changed),
 *   the store's sessions and model requests, and each order's stream read by its harness
 *   (`transcriptOf`), only for runs whose class depends on the session (needsSessionClues).
 */
export async function readFailureEvidence(store: Store, runs: readonly LeaderboardRun[]): Promise<Map<string, FailureEvidence>> {
  // the harnesses' stream readers (and their schemas) are loaded only when a run's class depends on its transcript
  const readsStream = runs.some((run) => run.outcome.kind !== 'solved' && needsSessionClues(run) && hasStream(run));
  const read: ReadTranscript | null = readsStream ? (await import('../agents/harnesses/stream-readers.js')).transcriptOf : null;
  const tallies = store.checkTallies(BROKEN_SHOWN);
  const out = new Map<string, FailureEvidence>();
  for (const run of runs) {
    if (run.outcome.kind === 'solved') continue;
    const tally = tallies.get(run.id);
    const lines = run.linesAdded + run.linesRemoved;
    out.set(run.id, {
      // no check rows (a change refused before grading, an older folder): the run's points say how far it got
      tests: run.outcome.kind === 'failed' && tally ? tally : null,
      changeBytes: lines > 0 ? null : changeBytesOf(store, run),
      sessions: needsSessionClues(run) ? sessionCluesOf(store, run, read) : null,
    });
  }
  return out;
}

/** Bytes of the run's stored changes (one file per order); null when an order's file is missing (an older or damaged folder). */
function changeBytesOf(store: Store, run: LeaderboardRun): number | null {
  let bytes = 0;
  for (const { order } of run.orders) {
    const st = statSync(orderFile(runOrderDir(store.runsDir, run.id, order), 'change'), { throwIfNoEntry: false });
    if (!st) return null;
    bytes += st.size;
  }
  return bytes;
}

/** A session's recorded stream, read as a transcript by the harness that wrote it. */
type ReadTranscript = (harness: string, stream: string) => TranscriptEntry[] | null;

/** True for runs of a harness: built-in and `command:` agents record no stream to read. */
function hasStream(run: LeaderboardRun): boolean {
  return run.agent.harness !== 'builtin' && run.agent.harness !== 'command';
}

function sessionCluesOf(store: Store, run: LeaderboardRun, read: ReadTranscript | null): SessionClues[] {
  return store.sessions(run.id).map((s) => cluesOf(store, run, s, read));
}

function cluesOf(store: Store, run: LeaderboardRun, s: SessionRow, read: ReadTranscript | null): SessionClues {
  const report = (s.harness ?? null) as { finalMessage?: unknown; errors?: unknown } | null;
  return {
    order: s.order,
    exitCode: s.exitCode,
    timedOut: s.timedOut,
    finalMessage: typeof report?.finalMessage === 'string' ? report.finalMessage : null,
    harnessErrors: Array.isArray(report?.errors) ? report.errors.filter((e): e is string => typeof e === 'string') : [],
    requests: (s.requests ?? []).filter((r) => r.format !== null).map((r) => ({ status: r.status, failure: r.failure, output: r.output })),
    tools: hasStream(run) && read !== null ? toolsOf(store, run, s.order, read) : null,
  };
}

function toolsOf(store: Store, run: LeaderboardRun, order: number, read: ReadTranscript): SessionClues['tools'] {
  const file = orderFile(runOrderDir(store.runsDir, run.id, order), 'stream');
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > MAX_STREAM_BYTES) return null;
  const transcript = read(run.agent.harness, readFileSync(file, 'utf8'));
  return transcript === null ? null : toolCluesOf(transcript);
}
