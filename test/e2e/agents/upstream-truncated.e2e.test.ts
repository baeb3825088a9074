import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from '../helpers.js';
import { AGENT_SPECS, oneTaskSuite, readStore, requireHarnesses } from './agent-helpers.js';

interface JsonRun { id: string; agent: string; outcome: string; voidReason: string | null; failReason: string | null; outcomeDetail: string | null; failure: { class: string; side: string; cause: string } | null }

/** Generous: on a loaded two-core machine a CLI can take tens of seconds to send its first request. */
const WALL_CLOCK_SEC = 90;

/**
 * Beyond the five harnesses at their usual wire formats (Claude Code, pi and OpenCode on
 * Anthropic Messages, Codex on Responses, Gemini CLI on Gemini): pi on OpenAI Responses, which
 * takes a cut stream as its answer and exits 0, and OpenCode on Chat Completions, the fourth
 * wire format.
 */
const EXTRA_SPECS = ['pi:openai/gpt-5', 'opencode:deepseek/deepseek-chat'];

/*
 * A model answer that did not arrive whole breaks the instrument: with the scripted model's
 * `truncated` stream (the beginning of an answer, then a clean end without the wire format's
 * final event) and its `disconnect` stream (the connection destroyed mid-event), every real CLI's
 * run is void `upstream-truncated` — whatever the CLI did: Claude Code retries and answers,
 * pi on Responses keeps the partial text and exits 0, Codex and Gemini give up — and the proxy's
 * own explanation is stored per request and quoted in the void detail.
 */
describe('a cut model answer voids the run upstream-truncated, for every harness', () => {
  let suite = '';
  beforeAll(async () => {
    await requireHarnesses();
    suite = await oneTaskSuite(WALL_CLOCK_SEC);
  }, 300_000);

  const cases: [script: string, explanation: RegExp][] = [
    ['truncated', /^the (anthropic-messages|openai-responses|openai-chat|gemini-generate) stream ended after \d+ bytes without /],
    ['disconnect', /^the connection broke after \d+ bytes of the (anthropic-messages|openai-responses|openai-chat|gemini-generate) stream \(HTTP 200\), before /],
  ];
  for (const [script, explanation] of cases) {
    it(`scripted:${script} → void upstream-truncated, with the proxy's explanation stored`, async () => {
      const out = await tempDir();
      const args = ['run', suite, '--upstream', `scripted:${script}`, '--upstream-idle-timeout', '10', '--runs', '1', '--concurrency', '3', '--out', out, '--json'];
      for (const spec of [...Object.values(AGENT_SPECS), ...EXTRA_SPECS]) args.push('--agent', spec);
      const r = await bakeoff(args);
      expect(r.exitCode, r.stderr).toBe(0);
      const runs = (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
      expect(runs).toHaveLength(7);
      const wrong = runs.filter((run) => run.outcome !== 'void' || run.voidReason !== 'upstream-truncated');
      expect(wrong.map((w) => `${w.agent}: ${w.outcome} ${w.voidReason ?? w.failReason} — ${w.outcomeDetail}`)).toEqual([]);
      // the model's answer was cut: the model's side of the failure anatomy, never the harness's
      expect(runs.map((run) => `${run.agent}: ${run.failure?.class} ${run.failure?.side} ${run.failure?.cause}`)).toEqual(runs.map((run) => `${run.agent}: model-error model api-truncated`));
      const { requests } = readStore(out);
      for (const run of runs) {
        const cut = requests.filter((q) => q.run_id === run.id && q.failure === 'truncated');
        expect(cut.length, `${run.agent}: a truncated request`).toBeGreaterThan(0);
        for (const q of cut) expect(q.detail, run.agent).toMatch(explanation);
        // the void detail quotes the proxy, says what to do, and never calls a cut stream unreachable
        expect(run.outcomeDetail, run.agent).toContain(cut[0]!.detail!);
        expect(run.outcomeDetail, run.agent).toMatch(/cuts long responses/);
        expect(run.outcomeDetail, run.agent).not.toMatch(/failed \(HTTP 200\)|unreachable/);
        expect(requests.filter((q) => q.run_id === run.id && q.failure === 'unreachable'), run.agent).toEqual([]);
      }
    }, 900_000);
  }

  it('Claude Code takes a stream that lacks only its message_stop as the answer and exits 0: still void', async () => {
    const sse = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    const body = [
      sse('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1000, output_tokens: 1 } } }),
      sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done: I looked at it and' } }),
      sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
      sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 40 } }),
    ].join('');
    const out = await tempDir();
    const recording = path.join(out, 'no-message-stop.jsonl');
    const answer = { format: 'anthropic-messages', path: '/v1/messages?beta=true', status: 200, contentType: 'text/event-stream; charset=utf-8', body };
    await writeFile(recording, [1, 2, 3].map((seq) => JSON.stringify({ seq, ...answer }) + '\n').join(''));
    const r = await bakeoff(['run', suite, '--upstream', `scripted:${recording}`, '--runs', '1', '--out', path.join(out, 'results'), '--json', '--agent', AGENT_SPECS['claude-code']]);
    expect(r.exitCode, r.stderr).toBe(0);
    const [run] = (JSON.parse((await bakeoff(['report', path.join(out, 'results'), '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
    expect(run).toMatchObject({ outcome: 'void', voidReason: 'upstream-truncated' });
    expect(run!.outcomeDetail).toContain(`the anthropic-messages stream ended after ${Buffer.byteLength(body)} bytes without message_stop); the harness still exited 0 with a final answer`);
    const { sessions, requests } = readStore(path.join(out, 'results'));
    expect((JSON.parse(sessions[0]!.harness_json!) as { finalMessage: string | null }).finalMessage).toBe('Done: I looked at it and');
    // the tokens were spent all the same: counted and priced
    expect(requests.map((q) => [q.failure, q.input, q.output])).toEqual([['truncated', 1000, 40]]);
  }, 300_000);
});
