import type { RunRecord } from '../types.js';

/** Live progress on a terminal: runs done / total, solved, void, elapsed, ETA. Silent elsewhere. */
export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, enabled: boolean) {
  const live = enabled && stream.isTTY === true;
  const started = Date.now();
  let total = 0;
  let done = 0;
  let doneHere = 0;
  let solved = 0;
  let voids = 0;
  const draw = (): void => {
    if (!live) return;
    const elapsed = (Date.now() - started) / 1000;
    const eta = doneHere > 0 ? ((total - done) * elapsed) / doneHere : NaN;
    const line = `runs ${done}/${total} · solved ${solved} · void ${voids} · ${clock(elapsed)} elapsed · ETA ${Number.isFinite(eta) ? clock(eta) : '–'}`;
    stream.write(`\r\x1b[2K${line}`);
  };
  let ticker: NodeJS.Timeout | undefined;
  return {
    start(planned: number, alreadyDone: number): void {
      total = planned;
      done = alreadyDone;
      draw();
      if (live) ticker = setInterval(draw, 1000).unref();
    },
    note(message: string): void {
      if (live) stream.write(`\r\x1b[2K${message}\n`);
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
      if (live) stream.write('\r\x1b[2K');
    },
  };
}

function clock(seconds: number): string {
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m` : `${m}:${String(s % 60).padStart(2, '0')}`;
}
