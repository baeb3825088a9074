import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createProgress, fitProgressLine } from './progress.js';

function stream(isTTY: boolean): PassThrough & { isTTY: boolean; text(): string } {
  const s = new PassThrough() as PassThrough & { isTTY: boolean; text(): string };
  let text = '';
  s.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  s.isTTY = isTTY;
  s.text = () => text;
  return s;
}

describe('createProgress', () => {
  for (const [mode, isTTY, enabled] of [['off a terminal', false, true], ['with --json on a terminal', true, false], ['with --json off a terminal', false, false]] as const) {
    it(`prints notes and errors ${mode} as plain lines, control characters escaped, and keeps them`, () => {
      const err = stream(isTTY);
      const progress = createProgress(err, enabled);
      progress.start(4, 0);
      progress.notes.note('skipping t1: rejected by validate (no test fails)');
      progress.notes.error('setup failed for t2: its runs are void (npm ci: \x1b[31mE404\x1b[0m)');
      progress.finish();
      expect(err.text()).toBe(
        'bakeoff: skipping t1: rejected by validate (no test fails)\n' + 'bakeoff: error: setup failed for t2: its runs are void (npm ci: \\x1b[31mE404\\x1b[0m)\n',
      );
      expect(progress.notes.notes).toEqual(['skipping t1: rejected by validate (no test fails)']);
      expect(progress.notes.errors).toEqual(['setup failed for t2: its runs are void (npm ci: \x1b[31mE404\x1b[0m)']);
    });
  }

  it('on a terminal, prints a note above the live progress line and redraws it', () => {
    const err = stream(true);
    const progress = createProgress(err, true);
    progress.start(4, 1);
    progress.notes.error('run r1 (t1, a) is void: boom');
    progress.finish();
    const text = err.text();
    expect(text).toContain('\r\x1b[2Kbakeoff: error: run r1 (t1, a) is void: boom\n\r\x1b[2Kruns 1/4');
    expect(text.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('on a terminal, the live line keeps the counts, elapsed and ETA first and cuts the running items to fit', () => {
    const err = stream(true) as ReturnType<typeof stream> & { columns: number };
    err.columns = 200;
    const progress = createProgress(err, true);
    progress.start(16, 4);
    progress.itemStarted('r1', 'add × gold (replay 0)');
    progress.itemStage('r1', 'session 1');
    progress.itemStarted('r2', 'fizz × noop (replay 1)');
    progress.itemStage('r2', 'grading 2');
    const wide = lastDrawn(err.text());
    expect(wide).toMatch(/^runs 4\/16 · solved 0 · void 0 · 0:00 elapsed · ETA – · add × gold \(replay 0\): session 1 0:00 · fizz × noop \(replay 1\): grading 2 0:00$/);
    err.columns = 80;
    progress.itemStage('r1', 'grading 1');
    const narrow = lastDrawn(err.text());
    expect(narrow.length).toBeLessThanOrEqual(79);
    expect(narrow).toMatch(/^runs 4\/16 · solved 0 · void 0 · 0:00 elapsed · ETA – · add × gold \(r… · \+1 more$/);
    err.columns = 66;
    progress.itemStage('r1', 'grading 1');
    expect(lastDrawn(err.text())).toMatch(/^runs 4\/16 · solved 0 · void 0 · 0:00 elapsed · ETA – · \+2 more$/);
    err.columns = 56;
    progress.itemStage('r1', 'grading 1');
    expect(lastDrawn(err.text())).toMatch(/^runs 4\/16 · solved 0 · void 0 · 0:00 elapsed · ETA –$/);
    err.columns = 200;
    progress.itemEnded('r1', 'add × gold (replay 0)', { verdict: 'solved', tally: ['solved'] });
    progress.activity(null);
    expect(lastDrawn(err.text())).toMatch(/^runs 5\/16 · solved 1 · void 0 · .* · fizz × noop \(replay 1\): grading 2 0:00$/);
    progress.finish();
    // a finished run leaves its line in the scrollback, above the live line
    expect(err.text()).toContain('\r\x1b[2Krun 5/16 add × gold (replay 0): solved in 0:00\n');
    expect(err.text().split('\n')).toHaveLength(2);
  });

  it('on a terminal, a stage clock counts from the stage start, not the run start; a stage detail changing keeps it', () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const err = stream(true) as ReturnType<typeof stream> & { columns: number };
      err.columns = 200;
      const progress = createProgress(err, true, { noun: 'tasks', tallies: [] });
      progress.start(2, 0);
      progress.itemStarted('a', 'a');
      progress.itemStage('a', 'setup: npm ci (0:00)');
      vi.setSystemTime(70_000);
      progress.itemStage('a', 'setup: npm ci (1:10) — added 4 packages');
      expect(lastDrawn(err.text())).toContain('a: setup: npm ci (1:10) — added 4 packages 1:10');
      progress.itemStage('a', 'gold-1');
      vi.setSystemTime(75_000);
      progress.itemStage('a', 'gold-1');
      expect(lastDrawn(err.text())).toContain('a: gold-1 0:05');
      progress.itemEnded('a', 'a', { verdict: 'admitted' });
      expect(err.text()).toContain('task 1/2 a: admitted in 1:15');
      progress.finish();
    } finally {
      vi.useRealTimers();
    }
  });

  it('on a terminal, a resize redraws the live line at the new width', () => {
    const err = stream(true) as ReturnType<typeof stream> & { columns: number };
    err.columns = 200;
    const progress = createProgress(err, true);
    progress.start(4, 0);
    progress.itemStarted('r1', 'a-long-task-name × claude-code:claude-sonnet-4-5 (replay 0)');
    const before = err.text().length;
    err.columns = 50;
    err.emit('resize');
    const redrawn = err.text().slice(before);
    expect(redrawn.startsWith('\r\x1b[2K')).toBe(true);
    expect(lastDrawn(redrawn).length).toBeLessThanOrEqual(49);
    progress.finish();
    expect(err.listenerCount('resize')).toBe(0);
  });

  it('on a terminal, counts the runs each worker of a fleet did, after the tallies, in the order the workers first finished one', () => {
    const err = stream(true) as ReturnType<typeof stream> & { columns: number };
    err.columns = 200;
    const progress = createProgress(err, true);
    progress.start(6, 0);
    expect(lastDrawn(err.text())).not.toContain('per worker');
    progress.itemEnded('r1', 'add × gold (replay 0) on w2', { verdict: 'solved', tally: ['solved'], by: 'w2' });
    progress.itemEnded('r2', 'add × noop (replay 0) on w1', { verdict: 'failed (tests-failed)', by: 'w1' });
    progress.itemEnded('r3', 'add × gold (replay 1) on w2', { verdict: 'void (infra-error)', tally: ['void'], by: 'w2' });
    expect(lastDrawn(err.text())).toMatch(/^runs 3\/6 · solved 1 · void 1 · 0:00 elapsed · ETA \d+:\d\d · per worker: w2 2, w1 1$/);
    progress.finish();
  });

  it('off a terminal, prints one line per finished item with its count, verdict, time and detail; with --json nothing', () => {
    for (const enabled of [true, false]) {
      const err = stream(false);
      const progress = createProgress(err, enabled, { noun: 'tasks', tallies: ['admitted', 'rejected'] });
      progress.start(3, 1);
      progress.itemStarted('a', 'a');
      progress.itemStage('a', 'gold-1');
      progress.itemStarted('b', 'b');
      progress.itemEnded('b', 'b', { verdict: 'REJECTED', tally: ['rejected'], detail: 'flaky: t1 (pass, then \x1b[31mfail)' });
      progress.itemEnded('a', 'a', { verdict: 'admitted', tally: ['admitted'] });
      progress.finish();
      expect(err.text()).toBe(enabled ? 'task 2/3 b: REJECTED in 0:00 — flaky: t1 (pass, then \\x1b[31mfail)\ntask 3/3 a: admitted in 0:00\n' : '');
    }
  });
});

describe('fitProgressLine', () => {
  it('never cuts the counts; cuts the last item that partly fits with … and counts those left out', () => {
    const counts = ['runs 1/9', 'solved 0', '0:10 elapsed', 'ETA 1:00'];
    expect(fitProgressLine(counts, null, ['aaaaaaaaaa: session 1 0:01', 'bbbbbbbbbbbbbbbbbbbb: grading 1 0:02'], 200)).toBe(
      'runs 1/9 · solved 0 · 0:10 elapsed · ETA 1:00 · aaaaaaaaaa: session 1 0:01 · bbbbbbbbbbbbbbbbbbbb: grading 1 0:02',
    );
    const cut = fitProgressLine(counts, null, ['aaaaaaaaaa: session 1 0:01', 'bbbbbbbbbbbbbbbbbbbb: grading 1 0:02', 'c: session 1 0:00'], 100);
    expect(cut).toBe('runs 1/9 · solved 0 · 0:10 elapsed · ETA 1:00 · aaaaaaaaaa: session 1 0:01 · bbbbbbbbbbbb… · +1 more');
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(fitProgressLine(counts, 'per worker: w1 3', ['x'], 47)).toBe('runs 1/9 · solved 0 · 0:10 elapsed · ETA 1:00');
  });

  it('cuts a name before its stage and clock, which say what is going on now', () => {
    const counts = ['runs 0/8', 'solved 0', 'void 0', '0:02 elapsed', 'ETA –'];
    const line = fitProgressLine(counts, null, ['add × gold (replay 0): session 1 0:02'], 80);
    expect(line).toBe('runs 0/8 · solved 0 · void 0 · 0:02 elapsed · ETA – · add × gol…: session 1 0:02');
    expect(line.length).toBeLessThanOrEqual(80);
  });
});

/** The last live line drawn: what follows the last line clear. */
function lastDrawn(text: string): string {
  return text.slice(text.lastIndexOf('\x1b[2K') + 4);
}
