import { execFileWithParent } from './die-with-parent.js';

const run = execFileWithParent;

/** What a program said when asked (`--version`), or why it said nothing. */
export type ProbeAnswer =
  /** It ran and exited 0: what it printed (stdout, then stderr). */
  | { readonly kind: 'answered'; readonly output: string }
  /** No such program. */
  | { readonly kind: 'missing' }
  /** It ran and failed: what it printed. */
  | { readonly kind: 'failed'; readonly output: string }
  /** It did not answer within its clock, twice (the second clock twice the first): a busy machine, most likely. */
  | { readonly kind: 'no-answer'; readonly seconds: number };

export interface ProbeOptions {
  /** The first clock (default 15 s); a program that does not answer is asked once more with twice as long. */
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Asks a program something quick (`--version`) and says how it went (decision 011): a program
 * that does not answer in time is asked once more with a clock twice as long, and then it is
 * `no-answer` — never `missing`: on a busy machine a CLI's start-up alone can take longer than
 * the first clock.
 */
export async function probeProgram(cmd: string, args: readonly string[], options: ProbeOptions = {}): Promise<ProbeAnswer> {
  const first = options.timeoutMs ?? 15_000;
  for (const timeout of [first, 2 * first]) {
    // our own note of the clock: a CLI that catches the clock's SIGTERM and exits 0 (gemini-cli
    // does, with nothing printed) would otherwise read as an answer without a version: "not installed"
    let late = false;
    const clock = setTimeout(() => (late = true), timeout);
    try {
      const { stdout, stderr } = await run(cmd, [...args], { timeout, ...(options.env ? { env: options.env } : {}) });
      if (late) continue;
      return { kind: 'answered', output: `${stdout}${stdout && stderr ? '\n' : ''}${stderr}` };
    } catch (error) {
      const e = error as { killed?: boolean; signal?: string | null; code?: number | string; stdout?: string; stderr?: string };
      if (late || e.killed === true) continue;
      // setpriv says so with 127 when it cannot execute the program
      if (e.code === 'ENOENT' || e.code === 127) return { kind: 'missing' };
      return { kind: 'failed', output: `${e.stdout ?? ''}${e.stdout && e.stderr ? '\n' : ''}${e.stderr ?? ''}` };
    } finally {
      clearTimeout(clock);
    }
  }
  return { kind: 'no-answer', seconds: Math.round((2 * first) / 1000) };
}

/** `did not answer in 30 s (the machine is busy?)`: what a probe that got no answer says. Pure. */
export function noAnswerText(answer: Extract<ProbeAnswer, { kind: 'no-answer' }>): string {
  return `did not answer in ${answer.seconds} s (the machine is busy?)`;
}

/**
 * The first line a program prints for `args` (stdout, else stderr: `pi --version` prints on
 * stderr), or null when it is missing, fails or does not answer ({@link probeProgram} says which).
 */
export async function probeVersion(cmd: string, args: readonly string[] = ['--version']): Promise<string | null> {
  const answer = await probeProgram(cmd, args);
  return answer.kind === 'answered' ? (answer.output.trim().split('\n')[0] ?? '') : null;
}
