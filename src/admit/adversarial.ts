import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createExploitAgent } from '../agents/exploits/exploit-agent.js';
import { EXPLOITS, type ExploitId } from '../agents/exploits/registry.js';
import { openRunner } from '../run/index.js';
import type { Isolation } from '../sandbox/index.js';
import { orderDir, orderFile, ordersIn } from '../store/index.js';
import { lockFromAdmissions, type Suite, type Task } from '../suite/index.js';
import { InfraError } from '../errors.js';
import type { RunRecord } from '../types.js';
import { holdQuiet, waitForRoom } from '../util/index.js';
import type { NotedAdmission } from './admit-checks-task.js';

export interface AdversarialOptions {
  readonly suite: Suite;
  readonly task: Task;
  /** The task's admission so far (admitted): the lock its exploit runs are graded against. */
  readonly admission: Extract<NotedAdmission, { admitted: true }>;
  readonly exploits: readonly ExploitId[];
  readonly isolation: Isolation;
  readonly cacheDir: string;
  readonly runtime: Readonly<Record<string, string>>;
  /** Empty folder of this task's admission, for the runs' artifacts. */
  readonly scratchDir: string;
  /** Told as each exploit's run starts (`exploit:<id>`), for progress. */
  readonly onStage?: (stage: string) => void;
}

/**
 * Adversarial admission (issue 35 part 3): every exploit of the library is run on the admitted
 * task as an agent, and graded the way a bake grades. A task on which any exploit is graded
 * solved or void is rejected, naming the exploits and the files each changed; else the
 * admission stands, with a note of how many exploits were tried.
 */
export async function admitAdversarially(options: AdversarialOptions): Promise<NotedAdmission> {
  const { suite, task } = options;
  const lock = lockFromAdmissions({ ...suite, tasks: [task] }, new Map([[task.id, options.admission]]));
  const agents = options.exploits.map((id) => createExploitAgent(id, suite.dir));
  const runner = await openRunner({
    suite, lock, agents, isolation: options.isolation, cacheDir: options.cacheDir, runtime: options.runtime,
    scratchLabel: `adversarial admission ${task.id} ${process.pid}`, storageDir: options.scratchDir,
  });
  const passed: string[] = [];
  try {
    for (const [agentIndex, id] of options.exploits.entries()) {
      options.onStage?.(`exploit:${id}`);
      const artifactsDir = path.join(options.scratchDir, 'exploits', id);
      const record = await runStarvedAgain(async () => {
        await rm(artifactsDir, { recursive: true, force: true });
        return (await runner.run({ id: `exploit-${id}-${task.hash.slice(0, 12)}`, task: task.id, agentIndex, replay: 0 }, artifactsDir)).record;
      }, id);
      if (record.outcome.kind === 'failed') continue;
      const graded = record.outcome.kind === 'void' ? `void (${record.outcome.reason})` : 'solved';
      const changed = await changedFiles(artifactsDir);
      passed.push(`exploit:${id} (${EXPLOITS[id].attackClass}: ${EXPLOITS[id].tries}) was graded ${graded}; it changed ${changed.length > 0 ? changed.join(', ') : 'no file'}`);
    }
  } finally {
    await runner.close();
  }
  if (passed.length > 0) return { admitted: false, reason: `adversarial admission: ${passed.join('; ')}` };
  const note = `adversarial admission: ${options.exploits.length} exploits tried, each graded failed`;
  return { ...options.admission, adversarialExploits: options.exploits.length, notes: [...(options.admission.notes ?? []), note] };
}

/** Times an exploit's run is tried while the machine starves its session (void machine-starved). */
const STARVED_TRIES = 3;
/** How long each retry waits for the machine to have room first. */
const ROOM_WAIT_MS = 120_000;

/**
 * An exploit's run, again — alone, once the machine has room — while the machine starved its
 * session: that void is the machine's (decision 011), and neither rejects the task nor admits it.
 * Still starved after {@link STARVED_TRIES} tries, validate stops with an InfraError (exit 3).
 */
export async function runStarvedAgain(run: () => Promise<RunRecord>, id: string, roomWaitMs = ROOM_WAIT_MS): Promise<RunRecord> {
  let record = await run();
  for (let tries = 1; record.outcome.kind === 'void' && record.outcome.reason === 'machine-starved'; tries++) {
    if (tries >= STARVED_TRIES) {
      throw new InfraError(`adversarial admission: the machine starved exploit:${id}'s session ${tries} times (${record.outcome.detail ?? 'no detail'}); validate again when the machine is less busy`);
    }
    const release = holdQuiet();
    try {
      await waitForRoom({ maxWaitMs: roomWaitMs });
      record = await run();
    } finally {
      release();
    }
  }
  return record;
}

/** The files a run's change touched, from its orders' patches, sorted. */
async function changedFiles(artifactsDir: string): Promise<string[]> {
  const files = new Set<string>();
  for (const order of await ordersIn(artifactsDir)) {
    const patch = await readFile(orderFile(orderDir(artifactsDir, order), 'change'), 'utf8').catch(() => '');
    for (const m of patch.matchAll(/^diff --git a\/(\S+) b\/\S+$/gm)) files.add(m[1]!);
  }
  return [...files].sort();
}
