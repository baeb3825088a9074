import type { Isolation } from './isolation.js';
import type { ExecRequest, ExecResult } from './types.js';

/** What the stand-in for a loaded machine does to one command. */
export interface HeldBack {
  /** HELD_BACK=1 in the command's environment: the load-sensitive fixture's timing test fails, as a real one does at load 50. */
  readonly failsTimingTest: boolean;
  /** The command's measured figures say starved (held back a quarter of its wall time or more). */
  readonly starved: boolean;
}

/**
 * A real isolation whose commands a loaded machine seems to hold back, as `held` says of each:
 * the stand-in for load 50 in the tests of decision 011's re-check rules (a real saturated
 * machine decides only sometimes, and slowly). Every request it was given is in `seen`.
 * Test support, left out of the build; needs a backend that measures (root and cgroups).
 */
export function heldBackIsolation(isolation: Isolation, held: (request: ExecRequest) => HeldBack): { readonly isolation: Isolation; readonly seen: ExecRequest[] } {
  const seen: ExecRequest[] = [];
  const { sandbox } = isolation;
  const exec = async (request: ExecRequest): Promise<ExecResult> => {
    seen.push(request);
    const how = held(request);
    const result = await sandbox.exec(how.failsTimingTest ? { ...request, env: { ...request.env, HELD_BACK: '1' } } : request);
    if (!result.cpu) throw new Error('the sandbox measured nothing: this test needs root and cgroups');
    return { ...result, cpu: { ...result.cpu, starved: how.starved } };
  };
  return { isolation: { ...isolation, sandbox: { ...sandbox, exec } }, seen };
}

/** Whether a command was asked to weigh like more than one process (a re-check's). */
export const weighted = (request: ExecRequest): boolean => (request.cpuWeight ?? 1) > 1;
