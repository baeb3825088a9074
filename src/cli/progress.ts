import { escapeControl, isStopping } from '../util/index.js';
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
 * - On a terminal: one live line — done / total, the tallies, elapsed and ETA first (they never
 *   leave), items done per worker (on a fleet: `per worker: w1 5, w2 4`), then each item
 *   running now with its stage and how long that stage has run (`add × gold: session 1 0:12`),
 *   cut to the width (names are cut, never the counts; `+2 more` says what did not fit).
 *   Each finished item leaves a line in the scrollback above it, as off a terminal; a resize
 *   redraws it; a stop (SIGINT) clears it for good.
 * - Off a terminal: one line per finished item on stderr (`run 5/16 add × gold #0: solved in 0:12`).
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
  const running = new Map<string, { label: string; stage: string | null; since: number; stageSince: number }>();
  const width = (): number => (stream as { columns?: number }).columns ?? 100;
  const draw = (): void => {
    if (!live || !drawn) return;
    if (isStopping()) return clear();
    const now = Date.now();
    const elapsed = (now - started) / 1000;
    const eta = doneHere > 0 ? ((total - done) * elapsed) / doneHere : NaN;
    const items = [
      ...(activity === null ? [] : [activity]),
      ...[...running.values()].map((r) => `${r.label}: ${r.stage ?? 'starting'} ${clock((now - r.stageSince) / 1000)}`),
    ];
    const line = fitProgressLine(
      [`${kind.noun} ${done}/${total}`, ...[...tallies].map(([name, n]) => `${name} ${n}`), `${clock(elapsed)} elapsed`, `ETA ${Number.isFinite(eta) ? clock(eta) : '–'}`],
      byWho.size === 0 ? null : `per worker: ${[...byWho].map(([who, n]) => `${who} ${n}`).join(', ')}`,
      items.map((text) => escapeControl(text)),
      Math.max(20, width() - 1),
    );
    stream.write(`\r\x1b[2K${line}`);
  };
  const clear = (): void => {
    if (live && drawn) stream.write('\r\x1b[2K');
  };
  const notes: Notes = createNotes(stream, {
    around: (write) => {
      clear();
      write();
      draw();
    },
  });
  let ticker: NodeJS.Timeout | undefined;
  const onResize = (): void => draw();
  return {
    notes,
    start(planned: number, alreadyDone: number): void {
      total = planned;
      done = alreadyDone;
      drawn = live;
      draw();
      if (live) {
        ticker = setInterval(draw, 1000).unref();
        stream.on('resize', onResize);
      }
    },
    /** What is happening besides the items (a setup command and its last line); null clears it. */
    activity(text: string | null): void {
      activity = text;
      draw();
    },
    /** An item started (`label` names it: a task, or task × agent). */
    itemStarted(key: string, label: string): void {
      const now = Date.now();
      running.set(key, { label, stage: null, since: now, stageSince: now });
      draw();
    },
    /**
     * What a running item is doing now (`session 1`, `grading 1`, `gold-2`, `setup: npm ci (0:42)`).
     * The stage's clock restarts when the stage changes (what comes before a `:`), so
     * `grading 1 0:05` is the grading's five seconds, not the run's.
     */
    itemStage(key: string, stage: string): void {
      const item = running.get(key);
      if (item) {
        if (item.stage === null || stageName(item.stage) !== stageName(stage)) item.stageSince = Date.now();
        item.stage = stage;
      }
      draw();
    },
    itemEnded(key: string, label: string, end: ItemEnd): void {
      const item = running.get(key);
      running.delete(key);
      done++;
      doneHere++;
      for (const t of end.tally ?? []) tallies.set(t, (tallies.get(t) ?? 0) + 1);
      if (end.by !== undefined) byWho.set(end.by, (byWho.get(end.by) ?? 0) + 1);
      if (enabled) {
        const took = item ? ` in ${clock((Date.now() - item.since) / 1000)}` : '';
        const noun = kind.noun === 'runs' ? 'run' : 'task';
        clear();
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
      stream.off('resize', onResize);
      clear();
      drawn = false;
    },
  };
}

/** The part of a stage that names it (`setup` of `setup: npm ci (0:42) — …`). */
function stageName(stage: string): string {
  const colon = stage.indexOf(':');
  return colon === -1 ? stage : stage.slice(0, colon);
}

/**
 * The live line in `room` characters: the counts (done/total, tallies, elapsed, ETA) always;
 * then per-worker counts if they fit; then as many running items as fit, the last one cut
 * with `…`, and `+N more` for those left out. Pure.
 */
export function fitProgressLine(counts: readonly string[], perWorker: string | null, items: readonly string[], room: number): string {
  const SEP = ' · ';
  let line = counts.join(SEP);
  if (perWorker !== null && line.length + SEP.length + perWorker.length <= room) line += SEP + perWorker;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const left = items.length - i - 1;
    const tail = left > 0 ? `${SEP}+${left} more` : '';
    if (line.length + SEP.length + item.length + tail.length <= room) {
      line += SEP + item;
      continue;
    }
    const space = room - line.length - SEP.length - tail.length;
    if (space >= MIN_CUT_ITEM) return `${line}${SEP}${cutItem(item, space)}${tail}`;
    const all = `${SEP}+${items.length - i} more`;
    return (line.length + all.length <= room ? line + all : line).slice(0, room);
  }
  return line.slice(0, room);
}

/**
 * `item` cut to `space` characters: a run's or task's name is cut before its stage and clock
 * (`add × gold…: session 1 0:12`), which say what is going on now; anything else at its end.
 */
function cutItem(item: string, space: number): string {
  const at = item.lastIndexOf(': ');
  const stage = at > 0 ? item.slice(at) : '';
  if (stage !== '' && space >= stage.length + 4) return `${item.slice(0, space - stage.length - 1)}…${stage}`;
  return `${item.slice(0, space - 1)}…`;
}

/** A running item cut shorter than this is left out instead (only its count is shown). */
const MIN_CUT_ITEM = 12;

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
