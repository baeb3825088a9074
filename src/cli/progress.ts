import { escapeControl } from '../util/index.js';
import { createNotes, type Notes } from './notes.js';

/** What a progress display counts: `runs` for run and verify, `tasks` for validate, and the tallies it keeps (e.g. solved, void). */
export interface ProgressKind {
  readonly noun: 'runs' | 'tasks';
  readonly tallies: readonly string[];
}

/** One item's end: its verdict word, the tallies it adds to, and a detail for the line printed off a terminal. */
export interface ItemEnd {
  readonly verdict: string;
  readonly tally?: readonly string[];
  readonly detail?: string;
  /** Who did it (a fleet's worker): the live line counts items per name. */
  readonly by?: string;
}

/**
 * Progress of long work, and the command's notes.
 * - On a terminal: one live line — done / total, the tallies, items done per worker (on a
 *   fleet: `per worker: w1 5, w2 4`), elapsed, ETA, then each item running now with its stage
 *   and how long it has run (`add × gold: session 1 0:12`).
 * - Off a terminal: one line per finished item on stderr (`run 5/16 add × gold #0: solved (0:12)`).
 * - Disabled (`--json`): nothing but the notes.
 * Notes are printed in every mode: on a live terminal above the progress line, elsewhere as
 * plain lines.
 */
export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, enabled: boolean, kind: ProgressKind = RUNS) {
  const live = enabled && stream.isTTY === true;
  const started = Date.now();
  let total = 0;
  let done = 0;
  let doneHere = 0;
  const tallies = new Map(kind.tallies.map((t) => [t, 0]));
  const byWho = new Map<string, number>();
  let drawn = false;
  let activity: string | null = null;
  const running = new Map<string, { label: string; stage: string | null; since: number }>();
  const width = (): number => (stream as { columns?: number }).columns ?? 100;
  const draw = (): void => {
    if (!live || !drawn) return;
    const now = Date.now();
    const elapsed = (now - started) / 1000;
    const eta = doneHere > 0 ? ((total - done) * elapsed) / doneHere : NaN;
    // in display order, each with its priority: what does not fit the width goes, least needed first
    const parts: [text: string, priority: number][] = [
      [`${kind.noun} ${done}/${total}`, 0],
      ...[...tallies].map(([name, n]): [string, number] => [`${name} ${n}`, 3]),
      ...(byWho.size === 0 ? [] : [[`per worker: ${[...byWho].map(([who, n]) => `${who} ${n}`).join(', ')}`, 3] as [string, number]]),
      [`${clock(elapsed)} elapsed`, 4],
      [`ETA ${Number.isFinite(eta) ? clock(eta) : '–'}`, 2],
      ...(activity === null ? [] : [[activity, 1] as [string, number]]),
      ...[...running.values()].map((r): [string, number] => [`${r.label}: ${r.stage ?? 'starting'} ${clock((now - r.since) / 1000)}`, 1]),
    ];
    const room = Math.max(20, width() - 1);
    let shown = parts;
    for (let drop = 4; drop >= 2 && escapeControl(shown.map((p) => p[0]).join(' · ')).length > room; drop--) shown = shown.filter((p) => p[1] < drop);
    const line = escapeControl(shown.map((p) => p[0]).join(' · '));
    stream.write(`\r\x1b[2K${line.slice(0, room)}`);
  };
  const notes: Notes = createNotes(stream, {
    around: (write) => {
      if (live && drawn) stream.write('\r\x1b[2K');
      write();
      draw();
    },
  });
  let ticker: NodeJS.Timeout | undefined;
  return {
    notes,
    start(planned: number, alreadyDone: number): void {
      total = planned;
      done = alreadyDone;
      drawn = live;
      draw();
      if (live) ticker = setInterval(draw, 1000).unref();
    },
    /** What is happening besides the items (a setup command and its last line); null clears it. */
    activity(text: string | null): void {
      activity = text;
      draw();
    },
    /** An item started (`label` names it: a task, or task × agent). */
    itemStarted(key: string, label: string): void {
      running.set(key, { label, stage: null, since: Date.now() });
      draw();
    },
    /** What a running item is doing now (`session 1`, `grading 1`, `gold-2`). */
    itemStage(key: string, stage: string): void {
      const item = running.get(key);
      if (item) item.stage = stage;
      draw();
    },
    itemEnded(key: string, label: string, end: ItemEnd): void {
      const item = running.get(key);
      running.delete(key);
      done++;
      doneHere++;
      for (const t of end.tally ?? []) tallies.set(t, (tallies.get(t) ?? 0) + 1);
      if (end.by !== undefined) byWho.set(end.by, (byWho.get(end.by) ?? 0) + 1);
      if (enabled && !live) {
        const took = item ? ` in ${clock((Date.now() - item.since) / 1000)}` : '';
        const noun = kind.noun === 'runs' ? 'run' : 'task';
        stream.write(`${escapeControl(`${noun} ${done}/${total} ${label}: ${end.verdict}${took}${end.detail ? ` — ${end.detail}` : ''}`)}\n`);
      }
      draw();
    },
    /** Items finished so far (those done before this command included), the total, and those finished by this command. */
    counts(): { readonly done: number; readonly total: number; readonly doneHere: number } {
      return { done, total, doneHere };
    },
    finish(): void {
      clearInterval(ticker);
      if (live && drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

export type Progress = ReturnType<typeof createProgress>;

export const RUNS: ProgressKind = { noun: 'runs', tallies: ['solved', 'void'] };

/** A running setup command as progress shows it: `npm ci (0:42) — added 40 packages`. */
export function setupText(progress: { readonly command: string; readonly elapsedSec: number; readonly lastLine: string }): string {
  return `${progress.command} (${clock(progress.elapsedSec)})${progress.lastLine ? ` — ${progress.lastLine}` : ''}`;
}

export function clock(seconds: number): string {
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m` : `${m}:${String(s % 60).padStart(2, '0')}`;
}
