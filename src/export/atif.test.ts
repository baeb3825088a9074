import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../types.js';
import { atifTrajectory } from './atif.js';

const run = {
  id: 'r1',
  task: 't',
  replay: 0,
  suiteHash: 'h',
  startedAt: '2026-01-01T00:00:00.000Z',
  agent: { id: 'claude-code:m', harness: 'claude-code', version: '2.0.0', model: 'm', effort: null },
  outcome: { kind: 'solved' },
} as unknown as RunRecord;

const request = (seq: number, input: number, cacheRead: number, cacheWrite: number, output: number, costUsd: number | null) => ({
  seq, startedAt: '', format: null, path: '', model: 'm', status: 200, failure: null, detail: null, latencyMs: 1, ttfbMs: 1, input, cacheRead, cacheWrite, output, reasoning: null, costUsd, costBasis: null,
});

describe('atifTrajectory', () => {
  it('puts the prompt first, numbers steps from 1, and makes each tool result the observation of its call', () => {
    const t = atifTrajectory({
      run,
      order: 1,
      prompt: 'Fix it.',
      transcript: [
        { kind: 'text', text: 'Looking.' },
        { kind: 'tool-call', tool: 'Bash', summary: 'ls', input: 'ls' },
        { kind: 'tool-result', tool: 'Bash', output: 'a.js', isError: false },
        { kind: 'final', text: 'Done.' },
      ],
      session: null,
    }) as { steps: { step_id: number; source: string; message: string; tool_calls?: unknown[]; observation?: unknown }[] };
    expect(t.steps.map((s) => [s.step_id, s.source, s.message])).toEqual([
      [1, 'user', 'Fix it.'],
      [2, 'agent', 'Looking.'],
      [3, 'agent', 'ls'],
      [4, 'agent', 'Done.'],
    ]);
    expect(t.steps[2]!.tool_calls).toEqual([{ tool_call_id: 'call-1', function_name: 'Bash', arguments: { input: 'ls' } }]);
    expect(t.steps[2]!.observation).toEqual({ results: [{ source_call_id: 'call-1', content: 'a.js' }] });
  });

  it('sums the metered requests into final_metrics, cache writes in extra, the cost only when every request has one', () => {
    const session = { order: 1, exitCode: 0, timedOut: false, durationMs: 5, tokensIn: null, tokensOut: null, costUsd: null, error: null, requests: [request(1, 100, 40, 10, 7, 0.5), request(2, 50, 0, 5, 3, 0.25)] };
    const t = atifTrajectory({ run, order: 1, prompt: 'p', transcript: [], session }) as { final_metrics: Record<string, unknown> };
    expect(t.final_metrics).toEqual({ total_prompt_tokens: 150, total_completion_tokens: 10, total_cached_tokens: 40, total_cost_usd: 0.75, total_steps: 1, extra: { total_cache_creation_input_tokens: 15, requests: 2 } });
    const unpriced = atifTrajectory({ run, order: 1, prompt: 'p', transcript: [], session: { ...session, requests: [request(1, 1, 0, 0, 1, null)] } }) as { final_metrics: { total_cost_usd: unknown } };
    expect(unpriced.final_metrics.total_cost_usd).toBeNull();
  });
});
