import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Agent, SessionResult } from '../agents/types.js';
import { captureChange, type Change } from '../sandbox/git.js';
import type { Isolation } from '../sandbox/isolation.js';
import { createWorkspace } from '../sandbox/workspace.js';
import type { TaskLock } from '../suite/lock.js';
import type { Suite, Task } from '../suite/types.js';
import type { Outcome, RunRecord } from '../types.js';
import type { CheckRow, SessionRow } from '../store/open-store.js';
import { gradeOrder } from './grade-order.js';

export interface RunTaskOptions {
  readonly runId: string;
  readonly suite: Suite;
  readonly task: Task;
  readonly lock: Extract<TaskLock, { admitted: true }>;
  readonly agent: Agent;
  readonly replay: number;
  readonly preparedRepo: string;
  readonly isolation: Isolation;
  readonly env: Readonly<Record<string, string>>;
  /** Scratch folder for workspaces; deleted afterwards. */
  readonly scratchDir: string;
  /** Where this run's artifacts go (a temp folder the store moves into place). */
  readonly artifactsDir: string;
  readonly runtime: Readonly<Record<string, string>>;
}

export interface TaskRunResult {
  readonly record: RunRecord;
  readonly sessions: readonly SessionRow[];
  readonly checks: readonly CheckRow[];
}

/*
 * Artifacts of one run:
 *   order-<n>/prompt.md        the prompt the agent got
 *   order-<n>/agent.log        the agent's stdout+stderr
 *   order-<n>/change.patch     the cumulative change after this order (binary-safe)
 *   order-<n>/grade/           test-output.log and report/ (the runner's raw report)
 */

/**
 * One run: a fresh workspace, one agent session per order (files carry over, no grading
 * results shown in between), each order graded from a clean copy plus the change.
 */
export async function runTask(options: RunTaskOptions): Promise<TaskRunResult> {
  const { task, agent, suite } = options;
  const startedAt = new Date().toISOString();
  const sessions: SessionRow[] = [];
  const checks: CheckRow[] = [];
  let agentMs = 0;
  let gradeMs = 0;
  let points = 0;
  let maxPoints = 0;
  let change: Change = { patch: '', linesAdded: 0, linesRemoved: 0, paths: [] };
  let outcome: Outcome = { kind: 'solved' };
  const workspace = await createWorkspace(options.preparedRepo, path.join(options.scratchDir, 'agent'), options.isolation.workspace);
  try {
    for (const order of task.orders) {
      const orderDir = path.join(options.artifactsDir, `order-${order.index}`);
      await mkdir(orderDir, { recursive: true });
      await writeFile(path.join(orderDir, 'prompt.md'), order.prompt);
      const sessionDir = path.join(options.scratchDir, `session-${order.index}`);
      await mkdir(sessionDir, { recursive: true, mode: 0o711 });
      const promptFile = path.join(sessionDir, 'prompt.md');
      await writeFile(promptFile, order.prompt, { mode: 0o644 });
      const session = await agent.runSession({
        taskId: task.id,
        order: order.index,
        prompt: order.prompt,
        promptFile,
        scratchDir: sessionDir,
        goldPatchPath: order.goldPatchPath,
        workspace: workspace.dir,
        sandbox: options.isolation.sandbox,
        env: options.env,
        timeoutMs: suite.controls.sessionWallClockSec * 1000,
        outputPath: path.join(orderDir, 'agent.log'),
      });
      agentMs += session.durationMs;
      sessions.push(toSessionRow(order.index, session));
      if (session.error) {
        outcome = worst(outcome, { kind: 'void', reason: 'agent-error', detail: session.error });
        break;
      }
      if (await workspace.isFull()) {
        outcome = worst(outcome, { kind: 'failed', reason: 'disk-limit', detail: `order ${order.index}: the workspace quota is used up` });
        break;
      }
      const limit = sessionLimit(session, suite.controls.sessionWallClockSec);
      if (limit) outcome = worst(outcome, { kind: 'failed', ...limit, detail: `order ${order.index}: ${limit.detail}` });
      change = await captureChange(options.preparedRepo, workspace.dir);
      await writeFile(path.join(orderDir, 'change.patch'), change.patch);
      const expected = options.lock.orders.find((o) => o.order === order.index) ?? { failToPass: [], passToPass: [] };
      const grade = await gradeOrder({
        isolation: options.isolation,
        preparedRepo: options.preparedRepo,
        patch: change.patch,
        changedPaths: change.paths,
        protectedPaths: task.protectedPaths,
        hiddenDirs: task.orders.filter((o) => o.index <= order.index).map((o) => o.hiddenDir),
        test: task.manifest.test,
        expected,
        scratchDir: path.join(options.scratchDir, `grade-${order.index}`),
        outDir: path.join(orderDir, 'grade'),
        env: options.env,
        timeoutMs: suite.controls.testWallClockSec * 1000,
      });
      gradeMs += grade.durationMs;
      maxPoints += expected.failToPass.length + expected.passToPass.length;
      if (!grade.applied) {
        outcome = worst(outcome, { kind: 'failed', reason: 'patch-did-not-apply', detail: grade.error.slice(0, 500) });
        continue;
      }
      points += grade.points;
      for (const c of grade.checks) checks.push({ order: order.index, id: c.id, expected: c.expected, status: c.status });
      if (grade.failure) outcome = worst(outcome, { kind: 'failed', reason: grade.failure.reason, detail: `order ${order.index}: ${grade.failure.detail}` });
    }
  } finally {
    await workspace.dispose();
  }
  const record: RunRecord = {
    id: options.runId,
    suiteId: suite.id,
    suiteHash: suite.hash,
    controlsDigest: suite.controlsDigest,
    task: task.id,
    agent: agent.info,
    replay: options.replay,
    seed: null,
    level: null,
    outcome,
    agentSec: agentMs / 1000,
    gradeSec: gradeMs / 1000,
    costUsd: sumOrNull(sessions.map((s) => s.costUsd)),
    tokensIn: sumOrNull(sessions.map((s) => s.tokensIn)),
    tokensOut: sumOrNull(sessions.map((s) => s.tokensOut)),
    linesAdded: change.linesAdded,
    linesRemoved: change.linesRemoved,
    points,
    maxPoints,
    runtime: { ...options.runtime, workspace: workspace.mode },
    startedAt,
    finishedAt: new Date().toISOString(),
  };
  return { record, sessions, checks };
}

/** The limit a session ran into, if any (memory before processes before the wall clock). */
function sessionLimit(
  session: SessionResult,
  wallClockSec: number,
): { reason: 'memory-limit' | 'pids-limit' | 'session-timeout'; detail: string } | null {
  if (session.limitHit === 'memory') return { reason: 'memory-limit', detail: 'killed at the memory limit' };
  if (session.limitHit === 'pids') return { reason: 'pids-limit', detail: 'ran into the process limit' };
  if (session.timedOut) return { reason: 'session-timeout', detail: `no answer within ${wallClockSec} s` };
  return null;
}

/** Keeps the first void, else the first failure: later orders never hide an earlier problem. */
function worst(current: Outcome, next: Outcome): Outcome {
  if (current.kind === 'void') return current;
  if (next.kind === 'void') return next;
  return current.kind === 'failed' ? current : next;
}

function toSessionRow(order: number, s: SessionResult): SessionRow {
  return {
    order,
    exitCode: s.exitCode,
    timedOut: s.timedOut,
    durationMs: s.durationMs,
    tokensIn: s.tokensIn ?? null,
    tokensOut: s.tokensOut ?? null,
    costUsd: s.costUsd ?? null,
    error: s.error ?? null,
  };
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}
