import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Agent, SessionResult } from '../agents/index.js';
import { captureChange, type Change, type Isolation, createBoundedDir, createWorkspace, describeStepCpu, inspectChange } from '../sandbox/index.js';
import type { TaskLock, Order, Suite, Task } from '../suite/index.js';
import type { RunRecord, StepRecord } from '../types.js';
import { type CheckRow, type RequestRow, type SessionRow, orderDir as orderFolder, orderFile, writeRefusal } from '../store/index.js';
import type { Budget } from './budget.js';
import type { GeneratedSet } from './generate-checks.js';
import { gradeEvidence, gradeOrder, type OrderGrade } from './grade-order.js';
import { orderGrading } from './order-grading.js';
import { decideOutcome, judgeOrder, outcomeRules, type OrderEvidence } from './decide-outcome.js';
import { buildRunRecord, sessionTotals } from './run-record.js';
import { agentsOrOurs } from './agents-or-ours.js';
import { failIfDiskFull } from './storage.js';

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
  /** Told when an order's session or grading starts (progress). */
  readonly onStage?: (stage: RunStage) => void;
  /** Told as each metered model request of an order's session ends (see `SessionContext.onRequest`). */
  readonly onRequest?: (order: number, row: RequestRow) => void;
}

/** What a run is doing: an order's agent session, or its grading. */
export interface RunStage {
  readonly order: number;
  readonly stage: 'session' | 'grading';
}

export interface TaskRunResult {
  readonly record: RunRecord;
  readonly sessions: readonly SessionRow[];
  readonly checks: readonly CheckRow[];
}

/* The artifacts of one run are laid out as store/run-folder.ts says (one folder per order). */

/**
 * One run: a fresh workspace, one agent session per order (files carry over, no grading
 * results shown in between), each order graded on its own from a clean copy plus the change.
 */
export async function runTask(options: RunTaskOptions): Promise<TaskRunResult> {
  const { task, agent, suite } = options;
  const controls = suite.controls;
  const rules = outcomeRules(controls);
  const startedAt = new Date().toISOString();
  const sessions: SessionRow[] = [];
  const checks: CheckRow[] = [];
  const evidence: OrderEvidence[] = [];
  const steps: StepRecord[] = [];
  let agentMs = 0;
  let gradeMs = 0;
  let change: Change = { patch: '', linesAdded: 0, linesRemoved: 0, plainLinesAdded: 0, plainLinesRemoved: 0, paths: [], binaryPaths: [] };
  const workspace = await createWorkspace(options.preparedRepo, path.join(options.scratchDir, 'agent'), options.isolation.workspace);

  /** Gathers an order's evidence stage by stage, until the rules (decide-outcome.ts) say the order ends. */
  const runOrder = async (order: Order, orderDir: string, ev: Writable<OrderEvidence>): Promise<void> => {
    const ended = (): boolean => judgeOrder(rules, ev).stop;
    const budgetMs = options.budget.remainingMs();
    ev.budgetUsedUp = budgetMs <= 0;
    if (ended()) return;
    const sessionDir = path.join(options.scratchDir, `session-${order.index}`);
    // what the session writes outside the workspace (a CLI's stream, a trace) is bounded too
    await createBoundedDir(sessionDir, (controls.outputMb + 64) * MB, 0o711);
    const promptFile = orderFile(sessionDir, 'prompt');
    await writeFile(promptFile, order.prompt, { mode: 0o644 });
    const sessionLimitMs = Math.min(controls.sessionWallClockSec * 1000, budgetMs);
    options.onStage?.({ order: order.index, stage: 'session' });
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
      outputPath: orderFile(orderDir, 'agentLog'),
      maxOutputBytes: controls.outputMb * MB,
      openWeb: controls.network === 'model-api+web',
      ...(options.onRequest ? { onRequest: (row: RequestRow) => options.onRequest!(order.index, row) } : {}),
    });
    agentMs += session.durationMs;
    options.budget.spend(session.durationMs);
    sessions.push(toSessionRow(order.index, session));
    if (session.cpu) steps.push({ step: 'session', order: order.index, attempt: 1, timedOut: session.timedOut, limitMs: sessionLimitMs, ...session.cpu });
    ev.session = {
      workspaceFull: await workspace.isFull(),
      failure: session.failure ?? null,
      error: session.error ?? null,
      voidReason: session.voidReason ?? null,
      limitHit: session.limitHit ?? null,
      timedOut: session.timedOut,
      cutByBudget: sessionLimitMs < controls.sessionWallClockSec * 1000,
      starved: session.cpu?.starved === true,
      ...(session.cpu ? { machine: describeStepCpu(session.cpu) } : {}),
    };
    if (ended()) return;
    // a refused change gets no stored patch: there is no patch of it (verify compares such runs on points)
    ev.changeRefused = (await inspectChange({ workspace, preparedRepo: options.preparedRepo, maxBytes: controls.maxChangeMb * MB })) ?? null;
    if (ended()) return;
    const captured = await agentsOrOurs(
      () => captureChange(options.preparedRepo, workspace.dir),
      () => captureChange(options.preparedRepo, options.preparedRepo),
    );
    ev.captureFailure = 'failure' in captured ? captured.failure : null;
    if ('failure' in captured) return;
    change = captured.value;
    await writeFile(orderFile(orderDir, 'change'), change.patch);
    options.onStage?.({ order: order.index, stage: 'grading' });
    const grading = await orderGrading({ ...options, order });
    ev.gradingVoid = 'void' in grading ? grading.void : null;
    if ('void' in grading) return;
    const gradeWith = (patch: string, attempt: string) =>
      gradeOrder({
        isolation: options.isolation,
        preparedRepo: options.preparedRepo,
        patch,
        task,
        grading,
        scratchDir: path.join(options.scratchDir, `${attempt}-${order.index}`),
        outDir: attempt === 'grade' ? orderFile(orderDir, 'grade') : path.join(options.scratchDir, `${attempt}-${order.index}-out`),
        env: options.env,
        timeoutMs: controls.testWallClockSec * 1000,
        outputBytes: controls.outputMb * MB,
      });
    const graded = await agentsOrOurs(() => gradeWith(change.patch, 'grade'), () => gradeWith('', 'control'));
    if ('failure' in graded) failIfDiskFull(orderDir, graded.failure);
    ev.gradeFailure = 'failure' in graded ? graded.failure : null;
    if ('failure' in graded) return;
    const grade = graded.value;
    gradeMs += grade.durationMs;
    if (grade.applied) {
      for (const a of grade.attempts) if (a.cpu) steps.push({ step: 'tests', order: order.index, attempt: a.attempt, timedOut: a.timedOut, limitMs: a.limitMs, ...a.cpu });
    }
    if (grade.applied) checks.push(...checkRows(order.index, grade));
    ev.grade = gradeEvidence(grade, grading);
  };

  try {
    for (const order of task.orders) {
      const orderDir = orderFolder(options.artifactsDir, order.index);
      await mkdir(orderDir, { recursive: true });
      await writeFile(orderFile(orderDir, 'prompt'), order.prompt);
      const ev: Writable<OrderEvidence> = { order: order.index };
      evidence.push(ev);
      await runOrder(order, orderDir, ev);
      const verdict = judgeOrder(rules, ev);
      if (verdict.refusal !== null) await writeRefusal(orderDir, verdict.refusal);
      if (verdict.stop) break;
    }
  } finally {
    await workspace.dispose();
  }
  const decided = decideOutcome(rules, evidence);
  const record = buildRunRecord(
    {
      id: options.runId,
      suite,
      task: task.id,
      agent: agent.info,
      effortCatalog: agent.effortCatalog ?? null,
      replay: options.replay,
      seed: options.seed,
      level: options.level,
      runtime: { ...options.runtime, workspace: workspace.mode },
      startedAt,
    },
    decided.outcome,
    {
      agentSec: agentMs / 1000,
      gradeSec: gradeMs / 1000,
      linesAdded: change.linesAdded,
      linesRemoved: change.linesRemoved,
      plainLines: { added: change.plainLinesAdded, removed: change.plainLinesRemoved },
      points: decided.points,
      maxPoints: decided.maxPoints,
      orders: decided.orders,
      steps,
      ...sessionTotals(sessions),
    },
  );
  return { record, sessions, checks };
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

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

/** The store's rows of an order's graded tests, a failing test's message (first line, at most 500 characters) with it. */
function checkRows(order: number, grade: Extract<OrderGrade, { applied: true }>): CheckRow[] {
  const messages = new Map<string, string>();
  if (grade.testRun) for (const t of grade.testRun.report.tests) if (t.message) messages.set(t.id, t.message.slice(0, 500));
  return grade.checks.map((c) => ({ order, id: c.id, expected: c.expected, status: c.status, ...(c.status !== 'pass' && messages.has(c.id) ? { message: messages.get(c.id)! } : {}) }));
}
