import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Agent, SessionResult } from '../agents/index.js';
import { captureChange, type Change, type Isolation, createBoundedDir, createWorkspace, inspectChange } from '../sandbox/index.js';
import type { TaskLock, Order, Suite, Task } from '../suite/index.js';
import type { FailReason, Outcome, RunRecord, TokenUsage } from '../types.js';
import { escapeControl } from '../util/index.js';
import type { CheckRow, SessionRow } from '../store/index.js';
import type { Budget } from './budget.js';
import type { GeneratedSet } from './generate-checks.js';
import { gradeOrder } from './grade-order.js';
import { orderGrading } from './order-grading.js';
import { worstOutcome } from './worst-outcome.js';
import { agentsOrOurs } from './agents-or-ours.js';

const MB = 1024 * 1024;

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
  /** Agent time this run may still spend (shared with other runs when the scope is a replay). */
  readonly budget: Budget;
  /** Generated checks of an order at the run's seed and level (checks-graded tasks). */
  readonly checksFor: (order: Order) => Promise<GeneratedSet>;
  readonly seed: number | null;
  readonly level: number | null;
}

export interface TaskRunResult {
  readonly record: RunRecord;
  readonly sessions: readonly SessionRow[];
  readonly checks: readonly CheckRow[];
}

/*
 * Artifacts of one run:
 *   order-<n>/prompt.md        the prompt the agent got
 *   order-<n>/agent.log        the agent's stdout+stderr (a model agent's stderr)
 *   order-<n>/stream.jsonl     a model agent's machine-readable stream (its stdout)
 *   order-<n>/model-responses.jsonl  every model answer as the CLI got it (a recorded session)
 *   order-<n>/network.json     with --trace-network: every address the CLI tried
 *   order-<n>/change.patch     the cumulative change after this order (binary-safe)
 *   order-<n>/grade/           test-output.log and report/ (the runner's raw report), or
 *                              checks.json (every check's input, expected value and result)
 */

/**
 * One run: a fresh workspace, one agent session per order (files carry over, no grading
 * results shown in between), each order graded on its own from a clean copy plus the change.
 */
export async function runTask(options: RunTaskOptions): Promise<TaskRunResult> {
  const { task, agent, suite } = options;
  const controls = suite.controls;
  const startedAt = new Date().toISOString();
  const sessions: SessionRow[] = [];
  const checks: CheckRow[] = [];
  const orders: { order: number; points: number; maxPoints: number }[] = [];
  let agentMs = 0;
  let gradeMs = 0;
  let change: Change = { patch: '', linesAdded: 0, linesRemoved: 0, paths: [], binaryPaths: [] };
  let outcome: Outcome = { kind: 'solved' };
  const timeout = (detail: string): Outcome =>
    controls.timeoutIsVoid ? { kind: 'void', reason: 'timeout', detail } : { kind: 'failed', reason: 'session-timeout', detail };
  const workspace = await createWorkspace(options.preparedRepo, path.join(options.scratchDir, 'agent'), options.isolation.workspace);
  try {
    for (const order of task.orders) {
      const orderDir = path.join(options.artifactsDir, `order-${order.index}`);
      await mkdir(orderDir, { recursive: true });
      await writeFile(path.join(orderDir, 'prompt.md'), order.prompt);
      const budgetMs = options.budget.remainingMs();
      if (budgetMs <= 0) {
        outcome = worstOutcome(outcome, timeout(`order ${order.index}: the agent time budget was used up before it started`));
        break;
      }
      const sessionDir = path.join(options.scratchDir, `session-${order.index}`);
      // what the session writes outside the workspace (a CLI's stream, a trace) is bounded too
      await createBoundedDir(sessionDir, (controls.outputMb + 64) * MB, 0o711);
      const promptFile = path.join(sessionDir, 'prompt.md');
      await writeFile(promptFile, order.prompt, { mode: 0o644 });
      const sessionLimitMs = Math.min(controls.sessionWallClockSec * 1000, budgetMs);
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
        timeoutMs: sessionLimitMs,
        outputPath: path.join(orderDir, 'agent.log'),
        maxOutputBytes: controls.outputMb * MB,
      });
      agentMs += session.durationMs;
      options.budget.spend(session.durationMs);
      sessions.push(toSessionRow(order.index, session));
      // a full workspace is the agent's doing, even when its CLI then reported an error or crashed
      if (await workspace.isFull()) {
        outcome = worstOutcome(outcome, { kind: 'failed', reason: 'disk-limit', detail: `order ${order.index}: the workspace quota is used up` });
        break;
      }
      if (session.failure) {
        await writeFile(path.join(orderDir, 'change-refused.txt'), `${session.failure.reason}: ${escapeControl(session.failure.detail, { keepNewlines: true })}\n`);
        outcome = worstOutcome(outcome, failed(session.failure.reason, `order ${order.index}: ${session.failure.detail}`));
        break;
      }
      if (session.error) {
        outcome = worstOutcome(outcome, { kind: 'void', reason: session.voidReason ?? 'agent-error', detail: `order ${order.index}: ${session.error}` });
        break;
      }
      if (session.limitHit === 'memory') outcome = worstOutcome(outcome, { kind: 'failed', reason: 'memory-limit', detail: `order ${order.index}: killed at the memory limit` });
      else if (session.limitHit === 'pids') outcome = worstOutcome(outcome, { kind: 'failed', reason: 'pids-limit', detail: `order ${order.index}: ran into the process limit` });
      else if (session.timedOut) {
        const why = sessionLimitMs < controls.sessionWallClockSec * 1000 ? 'the agent time budget ran out' : `no answer within ${controls.sessionWallClockSec} s`;
        outcome = worstOutcome(outcome, timeout(`order ${order.index}: ${why}`));
      }
      const refused = await inspectChange({ workspace, preparedRepo: options.preparedRepo, maxBytes: controls.maxChangeMb * MB });
      if (refused) {
        // no change.patch: there is no patch of this change (verify compares such runs on points)
        await writeFile(path.join(orderDir, 'change-refused.txt'), `${refused.reason}: ${escapeControl(refused.detail, { keepNewlines: true })}\n`);
        outcome = worstOutcome(outcome, failed(refused.reason, `order ${order.index}: ${refused.detail}`));
        break;
      }
      const captured = await agentsOrOurs(
        () => captureChange(options.preparedRepo, workspace.dir),
        () => captureChange(options.preparedRepo, options.preparedRepo),
      );
      if ('failure' in captured) {
        await writeFile(path.join(orderDir, 'change-refused.txt'), `grading-error: ${escapeControl(captured.failure, { keepNewlines: true })}\n`);
        outcome = worstOutcome(outcome, failed('grading-error', `order ${order.index}: capturing the change failed: ${captured.failure}`));
        break;
      }
      change = captured.value;
      await writeFile(path.join(orderDir, 'change.patch'), change.patch);
      const grading = await orderGrading({ ...options, order });
      if ('void' in grading) {
        outcome = worstOutcome(outcome, grading.void);
        break;
      }
      const gradeWith = (patch: string, attempt: string) =>
        gradeOrder({
          isolation: options.isolation,
          preparedRepo: options.preparedRepo,
          patch,
          task,
          grading,
          scratchDir: path.join(options.scratchDir, `${attempt}-${order.index}`),
          outDir: attempt === 'grade' ? path.join(orderDir, 'grade') : path.join(options.scratchDir, `${attempt}-${order.index}-out`),
          env: options.env,
          timeoutMs: controls.testWallClockSec * 1000,
          outputBytes: controls.outputMb * MB,
        });
      const graded = await agentsOrOurs(() => gradeWith(change.patch, 'grade'), () => gradeWith('', 'control'));
      if ('failure' in graded) {
        outcome = worstOutcome(outcome, failed('grading-error', `order ${order.index}: grading this change failed: ${graded.failure}`));
        break;
      }
      const grade = graded.value;
      gradeMs += grade.durationMs;
      const maxPoints = grading.kind === 'checks' ? grading.generated.checks.length : grading.expected.failToPass.length + grading.expected.passToPass.length;
      if (!grade.applied) {
        orders.push({ order: order.index, points: 0, maxPoints });
        outcome = worstOutcome(outcome, failed('patch-did-not-apply', grade.error.slice(0, 500)));
        continue;
      }
      orders.push({ order: order.index, points: grade.points, maxPoints: grade.maxPoints });
      for (const c of grade.checks) checks.push({ order: order.index, id: c.id, expected: c.expected, status: c.status });
      if (grade.failure) outcome = worstOutcome(outcome, failed(grade.failure.reason, `order ${order.index}: ${grade.failure.detail}`));
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
    seed: options.seed,
    level: options.level,
    outcome,
    agentSec: agentMs / 1000,
    gradeSec: gradeMs / 1000,
    costUsd: sumOrNull(sessions.map((s) => s.costUsd)),
    tokensIn: sumOrNull(sessions.map((s) => s.tokensIn)),
    tokensOut: sumOrNull(sessions.map((s) => s.tokensOut)),
    linesAdded: change.linesAdded,
    linesRemoved: change.linesRemoved,
    points: orders.reduce((a, o) => a + o.points, 0),
    maxPoints: orders.reduce((a, o) => a + o.maxPoints, 0),
    orders,
    runtime: { ...options.runtime, workspace: workspace.mode },
    usage: sumUsages(sessions.map((s) => s.usage ?? null)),
    flags: sessions.flatMap((s) => (s.flags ?? []).map((f) => `order ${s.order}: ${f}`)),
    startedAt,
    finishedAt: new Date().toISOString(),
  };
  return { record, sessions, checks };
}

/** A failure of the agent's, its detail made safe to print (it may carry file names the agent chose). */
function failed(reason: FailReason, detail: string): Outcome {
  return { kind: 'failed', reason, detail: escapeControl(detail, { keepNewlines: true }).slice(0, 2000) };
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
    usage: s.usage ?? null,
    harness: s.harness ?? null,
    requests: s.requests ?? [],
    flags: s.flags ?? [],
  };
}

function sumUsages(usages: readonly (TokenUsage | null)[]): TokenUsage | null {
  const present = usages.filter((u): u is TokenUsage => u !== null);
  if (present.length === 0) return null;
  const total = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, requests: 0 };
  for (const u of present) for (const key of Object.keys(total) as (keyof TokenUsage)[]) total[key] += u[key];
  return total;
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}
