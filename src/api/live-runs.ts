import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { BakeEvent } from '../run/index.js';
import { resultsPaths } from '../store/index.js';

/**
 * The results folder's live file (`resultsPaths().live`): the runs a bake has at work now, for `bakeoff view` (another process)
 * to show. The bake rewrites it whole (written beside, renamed) when a run starts, changes
 * stage or ends, and removes it when it ends; a file left by a killed bake is stale, so readers
 * believe it only while the results folder's lock holder is alive.
 */

/** One run at work, as the live file lists it. */
export interface LiveRun {
  readonly runId: string;
  readonly task: string;
  readonly agent: string;
  readonly replay: number;
  /** `session 1`, `grading 1`; null before the first stage. */
  readonly stage: string | null;
  /** When the stage (or, before one, the run) began: ms since the epoch. */
  readonly sinceMs: number;
}

/** Keeps the live file of `resultsDir` in step with a bake's events; `close()` removes it. */
export function createLiveRuns(resultsDir: string): { onEvent(event: BakeEvent): void; close(): void } {
  const file = resultsPaths(resultsDir).live;
  const running = new Map<string, LiveRun>();
  const write = (): void => {
    try {
      const tmp = `${file}.tmp-${process.pid}`;
      writeFileSync(tmp, JSON.stringify({ schemaVersion: 1, running: [...running.values()] }) + '\n');
      renameSync(tmp, file);
    } catch {
      // the live view is a convenience: a bake never fails because it could not be written
    }
  };
  return {
    onEvent(event) {
      if (event.type === 'run-start') running.set(event.runId, { runId: event.runId, task: event.task, agent: event.agent, replay: event.replay, stage: null, sinceMs: Date.now() });
      else if (event.type === 'run-stage') {
        const run = running.get(event.runId);
        if (run === undefined) return;
        running.set(event.runId, { ...run, stage: `${event.stage} ${event.order}`, sinceMs: Date.now() });
      } else if (event.type === 'run-end') running.delete(event.record.id);
      else return;
      write();
    },
    close() {
      rmSync(file, { force: true });
    },
  };
}

/** What the live file says now, and its mtime (ms; 0 when there is none). Never throws. */
export function readLiveRuns(resultsDir: string): { readonly running: readonly LiveRun[]; readonly mtimeMs: number } {
  const file = resultsPaths(resultsDir).live;
  try {
    const mtimeMs = statSync(file).mtimeMs;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { running?: LiveRun[] };
    return { running: Array.isArray(parsed.running) ? parsed.running : [], mtimeMs };
  } catch {
    return { running: [], mtimeMs: 0 };
  }
}
