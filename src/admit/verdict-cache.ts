import path from 'node:path';
import { toolchainsOf } from '../run/index.js';
import type { Controls, Suite, Task } from '../suite/index.js';
import { canonicalJson, fileStamp, sha256, type ProbeCache } from '../util/index.js';
import type { NotedAdmission } from './admit-checks-task.js';

/*
 * A task's admission is a function of the task (its admission hash: repo, manifest, hidden
 * files, gold — not the prompts, the manifest's words for people or where the task came from,
 * which no check reads; suite-hash.ts), the controls (their digest: limits, seeds, levels), the prepared repo the
 * checks ran on, the sandbox, and the runtimes that ran them (bakeoff, node, QuickJS, bwrap and
 * the task's own toolchains), and bakeoff's own code. When none of those changed since this machine admitted the task,
 * the admission would be the same: validate keeps it instead of running every stage again.
 * A plain admission runs no agent, so the controls of the agent's clock (see
 * {@link admissionControls}) are no part of it: a changed budget keeps every admission.
 * Only admissions are kept; a rejected task is checked again every time (its author is at
 * work on it). `validate --recheck` runs every task's checks whatever is kept.
 */

export interface VerdictCache {
  readonly probes: ProbeCache;
  readonly runtime: Readonly<Record<string, string>>;
  /** sha256 of bakeoff's shipped code: a rebuilt bakeoff of the same version string admits again. */
  readonly code: string;
}

/**
 * Controls only an agent's session reads — how many runs, the session wall clock, the agent
 * time budget, whether a timeout is void — never a plain admission's stages (the baseline and
 * gold test runs, the date check, generated checks), which run no agent. Adversarial admission
 * runs agents (exploits, hackers) through sessions: its key keeps every control.
 */
const AGENT_CLOCK_CONTROLS = ['runsPerTask', 'sessionWallClockSec', 'agentBudget', 'timeoutIsVoid'] as const satisfies readonly (keyof Controls)[];

/**
 * The controls digest an admission is kept under: every control for an adversarial admission
 * (it runs agents), else every control but {@link AGENT_CLOCK_CONTROLS}.
 */
export function admissionControls(suite: Pick<Suite, 'controls' | 'controlsDigest'>, adversarial: boolean): Pick<Suite, 'controlsDigest'> {
  if (adversarial) return { controlsDigest: suite.controlsDigest };
  const read: Record<string, unknown> = { ...suite.controls };
  for (const key of AGENT_CLOCK_CONTROLS) delete read[key];
  return { controlsDigest: sha256(canonicalJson(read)) };
}

/** The runtime fields every task's admission depends on; the toolchains are added per task. */
const SHARED_RUNTIME = ['bakeoff', 'node', 'quickjs', 'bwrap', 'platform'];

/**
 * The key a task's admission is kept under: its hash, the controls digest, the runtime it ran
 * on (the task's toolchains only), the sandbox, and the prepared repo (`prepared.json`, written
 * last when the repo is made: a repo made again is another file) — see prepare-repo.ts — and
 * the exploits and hacker agents adversarial admission ran, if it ran, and whether the date check can move the clock.
 */
export function verdictKey(
  suite: Pick<Suite, 'controlsDigest'>,
  task: Pick<Task, 'admissionHash' | 'manifest'>,
  options: {
    readonly runtime: Readonly<Record<string, string>>;
    readonly code: string;
    readonly sandbox: string;
    readonly preparedRepo: string;
    /** The exploits adversarial admission ran (null: it did not run): a plain admission is never kept for an adversarial one. */
    readonly exploits?: readonly string[] | null;
    /** The hacker agents it ran, each as its id and digest (the shipped prompt is in the digest): none kept for another set. */
    readonly hackers?: readonly string[];
    /** Why the date check can move only the time zone for this task on this machine (null: it moves the clock too): a libfaketime that changed admits again. */
    readonly clockNotMoved?: string | null;
  },
): unknown {
  const fields = [...SHARED_RUNTIME, ...toolchainsOf([task])];
  return {
    taskHash: task.admissionHash,
    controlsDigest: suite.controlsDigest,
    runtime: Object.fromEntries(fields.map((f) => [f, options.runtime[f] ?? null])),
    code: options.code,
    sandbox: options.sandbox,
    prepared: fileStamp(path.join(path.dirname(options.preparedRepo), 'prepared.json')),
    adversarial: options.exploits ?? null,
    // absent when none ran, so admissions kept before hackers existed are still found
    ...(options.hackers && options.hackers.length > 0 ? { hackers: options.hackers } : {}),
    clockNotMoved: options.clockNotMoved ?? null,
  };
}

/** Admissions under way in this process, by verdict file and key (see {@link rememberVerdict}). */
const underWay = new Map<string, Promise<NotedAdmission>>();

/**
 * The kept admission of `task` under `key`, else runs `admit` and keeps what it returns when
 * admitted. Filed by admission hash and controls, not by id: a task written twice under two ids
 * (a mined commit checked in a scratch suite, then added to the real one) is admitted once, and
 * so is a task whose draft prompt was rewritten (task from-commit adds what admission observed).
 */
export async function rememberVerdict(cache: VerdictCache, suite: Pick<Suite, 'controlsDigest'>, task: Pick<Task, 'admissionHash'>, key: unknown, admit: () => Promise<NotedAdmission>): Promise<NotedAdmission> {
  const name = `verdict-${sha256(`${task.admissionHash}\n${suite.controlsDigest}`).slice(0, 32)}`;
  // one validate may check two tasks of one admission hash at once (a task copied under another
  // id): the second waits for the first's checks instead of running them beside it
  const slot = `${name}\0${canonicalJson(key)}`;
  const running = underWay.get(slot);
  if (running) {
    const first = await running;
    // a rejection is never kept: the task is checked on its own
    return first.admitted ? first : admit();
  }
  const work = cache.probes.remember(name, key, admit, (admission) => admission.admitted);
  underWay.set(slot, work);
  try {
    return await work;
  } finally {
    underWay.delete(slot);
  }
}
