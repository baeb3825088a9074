import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

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
});
