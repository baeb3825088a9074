import type { RunRecord } from '../types.js';
import { createNotes, type Notes } from './notes.js';

/**
 * Live progress on a terminal (runs done / total, solved, void, elapsed, ETA; silent
 * elsewhere), and the command's notes, which are printed in every mode: on a live terminal
 * above the progress line, elsewhere as plain lines.
 */
export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, enabled: boolean) {
  const live = enabled && stream.isTTY === true;
  const started = Date.now();
  let total = 0;
  let done = 0;
  let doneHere = 0;
  let solved = 0;
  let voids = 0;
  let drawn = false;
  let activity: string | null = null;
  const width = (): number => (stream as { columns?: number }).columns ?? 100;
  const draw = (): void => {
    if (!live || !drawn) return;
    const elapsed = (Date.now() - started) / 1000;
    const eta = doneHere > 0 ? ((total - done) * elapsed) / doneHere : NaN;
    const counts = `runs ${done}/${total} · solved ${solved} · void ${voids} · ${clock(elapsed)} elapsed · ETA ${Number.isFinite(eta) ? clock(eta) : '–'}`;
    const line = activity === null ? counts : `${counts} · ${activity}`;
    stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, width() - 1))}`);
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
    /** What is happening now (a setup command and its last line), shown on the live line; null clears it. */
    activity(text: string | null): void {
      activity = text;
      draw();
    },
    runEnded(record: RunRecord): void {
      done++;
      doneHere++;
      if (record.outcome.kind === 'solved') solved++;
      if (record.outcome.kind === 'void') voids++;
      draw();
    },
    finish(): void {
      clearInterval(ticker);
      if (live && drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

export function clock(seconds: number): string {
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m` : `${m}:${String(s % 60).padStart(2, '0')}`;
}
