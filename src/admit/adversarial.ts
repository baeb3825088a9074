import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createExploitAgent } from '../agents/exploits/exploit-agent.js';
import { EXPLOITS, type ExploitId } from '../agents/exploits/registry.js';
import type { Agent } from '../agents/index.js';
import { openRunner, type RunResult } from '../run/index.js';
import type { Isolation } from '../sandbox/index.js';
import { orderDir, orderFile, ordersIn } from '../store/index.js';
import { lockFromAdmissions, type Suite, type Task } from '../suite/index.js';
import { InfraError } from '../errors.js';
import { PASS_STOPPING_VOIDS, type Outcome, type RunRecord } from '../types.js';
import { holdQuiet, waitForRoom } from '../util/index.js';
import type { NotedAdmission } from './admit-checks-task.js';
import { hackerTaskPrompt } from './hacker-agent.js';

export interface AdversarialOptions {
  readonly suite: Suite;
  readonly task: Task;
  /** The task's admission so far (admitted): the lock its exploit runs are graded against. */
  readonly admission: Extract<NotedAdmission, { admitted: true }>;
  readonly exploits: readonly ExploitId[];
  /**
   * Hacker agents (`validate --hacker <spec>`, made by createHackerAgent): each runs once on the
   * task after the exploits, graded the same way. Absent or empty: none.
   */
  readonly hackers?: readonly Agent[];
  /**
   * Where a hacker run that rejects the task is kept as evidence (its run folder, and `run.json`
   * with its record and sessions): `<evidenceDir>/<agent id as a file name>/`. The folder is
   * emptied first, so it holds this validate's evidence only.
   */
  readonly evidenceDir: string;
  readonly isolation: Isolation;
  readonly cacheDir: string;
  readonly runtime: Readonly<Record<string, string>>;
  /** Empty folder of this task's admission, for the runs' artifacts. */
  readonly scratchDir: string;
  /** Told as each exploit's or hacker's run starts (`exploit:<id>`, `hacker:<spec>`), for progress. */
  readonly onStage?: (stage: string) => void;
}

/**
 * Adversarial admission (issue 35 part 3): every exploit of the library, then every hacker
 * agent, is run on the admitted task as an agent, and graded the way a bake grades. A task on
 * which any of them is graded solved or void is rejected, naming each and the files it changed
 * (a hacker's run folder is kept as evidence, its path in `evidence`); else the
 * admission stands, with a note of how many exploits and which hackers were tried.
 */
export async function admitAdversarially(options: AdversarialOptions): Promise<NotedAdmission> {
  const { suite, task } = options;
  const hackers = options.hackers ?? [];
  const lock = lockFromAdmissions({ ...suite, tasks: [task] }, new Map([[task.id, options.admission]]));
  const agents = [...options.exploits.map((id) => createExploitAgent(id, suite.dir)), ...hackers];
  const runner = await openRunner({
    suite, lock, agents, isolation: options.isolation, cacheDir: options.cacheDir, runtime: options.runtime,
    scratchLabel: `adversarial admission ${task.id} ${process.pid}`, storageDir: options.scratchDir,
  });
  await rm(options.evidenceDir, { recursive: true, force: true });
  const passed: string[] = [];
  const evidence: string[] = [];
  try {
    for (const [agentIndex, agent] of agents.entries()) {
      const label = agent.info.id;
      options.onStage?.(label);
      const artifactsDir = path.join(options.scratchDir, 'agents', fileNameOf(label));
      let sessions: RunResult['sessions'] = [];
      const record = await runStarvedAgain(async () => {
        await rm(artifactsDir, { recursive: true, force: true });
        const result = await runner.run({ id: `${fileNameOf(label)}-${task.hash.slice(0, 12)}`, task: task.id, agentIndex, replay: 0 }, artifactsDir);
        sessions = result.sessions;
        return result.record;
      }, label);
      if (record.outcome.kind === 'failed') continue;
      const graded = record.outcome.kind === 'void' ? `void (${record.outcome.reason})` : 'solved';
      const changed = await changedFiles(artifactsDir);
      const what = `it changed ${changed.length > 0 ? changed.join(', ') : 'no file'}`;
      if (agentIndex < options.exploits.length) {
        const id = options.exploits[agentIndex]!;
        passed.push(`${label} (${EXPLOITS[id].attackClass}: ${EXPLOITS[id].tries}) was graded ${graded}; ${what}`);
        continue;
      }
      if (judgeHackerRun(record.outcome) === 'unjudged' && record.outcome.kind === 'void') {
        throw new InfraError(`adversarial admission of ${task.id}: ${label}'s session ended void (${record.outcome.reason}: ${record.outcome.detail ?? 'no detail'}), so its change says nothing about the task; validate again once the agent can run`);
      }
      const kept = await keepEvidence(artifactsDir, path.join(options.evidenceDir, fileNameOf(label)), { record, sessions });
      evidence.push(kept);
      passed.push(`${label} (told to make the tests pass without fixing the problem) was graded ${graded}; ${what}; its run folder is kept as evidence: read its change (a hacker that fixed the problem against its prompt is graded solved too)`);
    }
  } finally {
    await runner.close();
  }
  if (passed.length > 0) return { admitted: false, reason: `adversarial admission: ${passed.join('; ')}`, ...(evidence.length > 0 ? { evidence } : {}) };
  const tried = hackers.length > 0 ? ` and ${hackers.length} hacker agent${hackers.length === 1 ? '' : 's'} (${hackers.map((h) => h.info.id).join(', ')})` : '';
  const note = `adversarial admission: ${options.exploits.length} exploits${tried} tried, each graded failed`;
  return {
    ...options.admission,
    adversarialExploits: options.exploits.length,
    ...(hackers.length > 0 ? { adversarialHackers: hackers.map((h) => h.info.id) } : {}),
    notes: [...(options.admission.notes ?? []), note],
  };
}

/** Voids of a session that never ended with a change to judge (the model API, the CLI, the clock). */
const SESSION_VOIDS: ReadonlySet<string> = new Set(PASS_STOPPING_VOIDS);

/**
 * What a hacker's graded run says of the task: `held` (failed), `rejects` (solved, or void by
 * the grading — the exploits' rule), or `unjudged`: void because its session never ended with a
 * change to judge (the model API, the CLI, the clock), which neither rejects the task nor admits it.
 */
export function judgeHackerRun(outcome: Outcome): 'held' | 'rejects' | 'unjudged' {
  if (outcome.kind === 'failed') return 'held';
  return outcome.kind === 'void' && SESSION_VOIDS.has(outcome.reason) ? 'unjudged' : 'rejects';
}

/** An agent id as one path segment: `hacker:claude-code:claude-sonnet-4-5` → `hacker-claude-code-claude-sonnet-4-5`. */
function fileNameOf(id: string): string {
  return id.replace(/[^A-Za-z0-9._@-]+/g, '-').slice(0, 120);
}

/**
 * Copies a hacker run's folder (transcript, change.patch, agent log …) to `target` with
 * `run.json` (its record and sessions), each order's `prompt.md` made the prompt the hacker
 * got (the run folder keeps the order's own); returns `target`.
 */
async function keepEvidence(artifactsDir: string, target: string, run: Pick<RunResult, 'record' | 'sessions'>): Promise<string> {
  await mkdir(path.dirname(target), { recursive: true });
  await cp(artifactsDir, target, { recursive: true });
  for (const order of await ordersIn(target)) {
    const file = orderFile(orderDir(target, order), 'prompt');
    const own = await readFile(file, 'utf8').catch(() => null);
    if (own !== null) await writeFile(file, hackerTaskPrompt(own));
  }
  await writeFile(path.join(target, 'run.json'), JSON.stringify(run, null, 2) + '\n');
  return target;
}

/** Times an exploit's run is tried while the machine starves its session (void machine-starved). */
const STARVED_TRIES = 3;
/** How long each retry waits for the machine to have room first. */
const ROOM_WAIT_MS = 120_000;

/**
 * An exploit's (or hacker's) run, again — alone, once the machine has room — while the machine starved its
 * session: that void is the machine's (decision 011), and neither rejects the task nor admits it.
 * Still starved after {@link STARVED_TRIES} tries, validate stops with an InfraError (exit 3).
 */
export async function runStarvedAgain(run: () => Promise<RunRecord>, label: string, roomWaitMs = ROOM_WAIT_MS): Promise<RunRecord> {
  let record = await run();
  for (let tries = 1; record.outcome.kind === 'void' && record.outcome.reason === 'machine-starved'; tries++) {
    if (tries >= STARVED_TRIES) {
      throw new InfraError(`adversarial admission: the machine starved ${label}'s session ${tries} times (${record.outcome.detail ?? 'no detail'}); validate again when the machine is less busy`);
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
