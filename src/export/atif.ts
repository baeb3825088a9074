import type { TranscriptEntry } from '../agents/index.js';
import type { RequestRow, SessionRow } from '../store/index.js';
import type { RunRecord } from '../types.js';
import type { ResultsExporter } from './types.js';

/*
 * One recorded session (a run's order) as an ATIF trajectory (Harbor's Agent Trajectory
 * Interchange Format): the prompt as the user's step, then the session's transcript (the same
 * entries the private run page shows) as the agent's steps, tool results as the observation of
 * the call they answer, and the metered requests as final_metrics. ATIF has no cache-write
 * field: it goes to `extra`, as Harbor's own Claude Code adapter does.
 */

export const ATIF_VERSION = 'ATIF-v1.5';

interface Step {
  step_id: number;
  source: 'system' | 'user' | 'agent';
  message: string;
  timestamp?: string;
  model_name?: string;
  tool_calls?: { tool_call_id: string; function_name: string; arguments: Record<string, unknown> }[];
  observation?: { results: { source_call_id: string | null; content: string }[] };
  extra?: Record<string, unknown>;
}

export interface AtifInput {
  readonly run: RunRecord;
  readonly order: number;
  readonly prompt: string;
  readonly transcript: readonly TranscriptEntry[];
  readonly session: SessionRow | null;
}

/** The trajectory of one session (pure). */
export function atifTrajectory({ run, order, prompt, transcript, session }: AtifInput): Record<string, unknown> {
  const steps: Step[] = [{ step_id: 1, source: 'user', message: prompt, timestamp: run.startedAt }];
  const model = run.agent.model ?? undefined;
  const add = (step: Omit<Step, 'step_id'>): Step => {
    const s = { step_id: steps.length + 1, ...step, ...(model && step.source === 'agent' ? { model_name: model } : {}) };
    steps.push(s);
    return s;
  };
  const open: { step: Step; id: string; tool: string }[] = [];
  for (const e of transcript) {
    if (e.kind === 'text' || e.kind === 'final') add({ source: 'agent', message: e.text, ...(e.kind === 'final' ? { extra: { final: true } } : {}) });
    else if (e.kind === 'error') add({ source: 'system', message: e.message, extra: { error: true } });
    else if (e.kind === 'tool-call') {
      const id = `call-${open.length + 1}`;
      const step = add({ source: 'agent', message: e.summary ?? '', tool_calls: [{ tool_call_id: id, function_name: e.tool, arguments: { input: e.input } }] });
      open.push({ step, id, tool: e.tool });
    } else {
      // the latest call of that tool (or the latest call) still without a result
      const call = [...open].reverse().find((c) => !c.step.observation && (e.tool === null || c.tool === e.tool));
      if (call) call.step.observation = { results: [{ source_call_id: call.id, content: e.output }] };
      else add({ source: 'system', message: e.output, observation: { results: [{ source_call_id: null, content: e.output }] } });
    }
  }
  const requests = session?.requests ?? [];
  const sum = (f: (r: RequestRow) => number | null): number => requests.reduce((n, r) => n + (f(r) ?? 0), 0);
  const costs = requests.map((r) => r.costUsd);
  return {
    schema_version: ATIF_VERSION,
    session_id: `${run.id}-order-${order}`,
    agent: { name: run.agent.harness, version: run.agent.version ?? 'unknown', ...(model ? { model_name: model } : {}), extra: { bakeoff_agent: run.agent.id, effort: run.agent.effort } },
    steps,
    final_metrics: {
      total_prompt_tokens: sum((r) => r.input),
      total_completion_tokens: sum((r) => r.output),
      total_cached_tokens: sum((r) => r.cacheRead),
      total_cost_usd: costs.length > 0 && costs.every((c) => c !== null) ? costs.reduce((a, b) => a! + b!, 0) : null,
      total_steps: steps.length,
      extra: { total_cache_creation_input_tokens: sum((r) => r.cacheWrite), requests: requests.length },
    },
    extra: { bakeoff_run: run.id, task: run.task, order, replay: run.replay, outcome: run.outcome.kind, suite_hash: run.suiteHash, duration_ms: session?.durationMs ?? null },
  };
}

/** `export atif` in the registry. */
export const atifExporter: ResultsExporter = { from: 'results', writes: 'ATIF trajectories, one trajectory.json per recorded session' };
