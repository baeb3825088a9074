import { sha256 } from '../util/index.js';

/** One planned run: which agent does which task, and which replay it is. */
export interface RunSpec {
  /** Content-addressed: the same inputs always give the same id, so a re-run skips it. */
  readonly id: string;
  readonly task: string;
  readonly agentIndex: number;
  readonly replay: number;
}

export interface PlanInput {
  readonly suiteHash: string;
  readonly tasks: readonly string[];
  /** Agent digests, in command-line order. */
  readonly agents: readonly string[];
  readonly runsPerTask: number;
  readonly seed?: number | null;
}

/**
 * tasks × agents × replays, ordered replay-major so that a bake stopped part-way has covered
 * every task and agent about equally.
 */
export function planRuns(input: PlanInput): RunSpec[] {
  const specs: RunSpec[] = [];
  for (let replay = 0; replay < input.runsPerTask; replay++) {
    for (const task of input.tasks) {
      input.agents.forEach((digest, agentIndex) => {
        specs.push({ id: runId(input.suiteHash, task, digest, replay, input.seed ?? null), task, agentIndex, replay });
      });
    }
  }
  return specs;
}

export function runId(suiteHash: string, task: string, agentDigest: string, replay: number, seed: number | null): string {
  return sha256([suiteHash, task, agentDigest, String(replay), String(seed)].join('\n')).slice(0, 20);
}
