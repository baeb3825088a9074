import { describe, expect, it } from 'vitest';
import { noAnswerText, probeProgram, probeVersion } from './probe-version.js';

describe('probeProgram', () => {
  it('tells a program that did not answer in time (asked twice) from one that is missing or failed', async () => {
    const started = performance.now();
    const slow = await probeProgram('sh', ['-c', 'sleep 30'], { timeoutMs: 300 });
    expect(slow).toEqual({ kind: 'no-answer', seconds: 1 });
    // asked twice: 300 ms, then 600 ms
    expect(performance.now() - started).toBeGreaterThanOrEqual(850);
    expect(noAnswerText(slow as Extract<typeof slow, { kind: 'no-answer' }>)).toBe('did not answer in 1 s (the machine is busy?)');
    expect(await probeProgram('bakeoff-no-such-program', ['--version'])).toEqual({ kind: 'missing' });
    expect(await probeProgram('sh', ['-c', 'echo broken >&2; exit 3'])).toEqual({ kind: 'failed', output: 'broken\n' });
  });

  it('takes a program that catches the clock\'s SIGTERM and exits 0, printing nothing, for one that did not answer (gemini-cli does)', async () => {
    const quiet = await probeProgram('sh', ['-c', "trap 'exit 0' TERM; sleep 30 & wait"], { timeoutMs: 300 });
    expect(quiet).toEqual({ kind: 'no-answer', seconds: 1 });
  });

  it('answers on the second, longer clock when the first was too short', async () => {
    // takes 1.2 s: past a 1 s clock, well within 2 s
    expect(await probeProgram('sh', ['-c', 'sleep 1.2; echo v1.2.3'], { timeoutMs: 1000 })).toEqual({ kind: 'answered', output: 'v1.2.3\n' });
  });

  it('gives the first line of a version, on stdout or stderr', async () => {
    expect(await probeVersion('sh', ['-c', 'echo "tool 1.0" >&2'])).toBe('tool 1.0');
    expect(await probeVersion('bakeoff-no-such-program')).toBeNull();
  });
});
