import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FailureClass, MeteredRequest, RequestUsage } from '../../meter/index.js';
import type { HarnessName } from '../harnesses/index.js';
import { STREAM_READERS } from '../harnesses/stream-readers.js';
import { accountHarnessSession } from './account-harness-session.js';
import type { Price } from './account-session.js';

const readerNamed = (name: string) => STREAM_READERS[name as HarnessName];

/** A golden stream captured from the pinned CLI (test/fixtures/harness-streams/README.md). */
const stream = (harness: string, file: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/harness-streams/${harness}/${file}`, import.meta.url)), 'utf8');

const PRICE: Price = { model: 'm', provider: 'p', input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15, source: 'catalog', when: null };
const priced = (): Price | null => PRICE;
const unpriced = (): Price | null => null;

type Tokens = Pick<RequestUsage, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'outputTokens' | 'reasoningTokens'>;
/** A metered request; `usage` null for one that failed before any tokens. */
const req = (seq: number, usage: Tokens | null, failure: FailureClass | null = null): MeteredRequest => ({
  seq, startedAt: '2026-11-30T12:00:00.000Z', format: 'anthropic-messages', method: 'POST', path: '/v1/messages', model: 'm',
  status: failure === 'server-error' ? 500 : 200, latencyMs: 10, ttfbMs: 5, streamed: true,
  usage: usage && ({ ...usage, model: null, costUsd: null } as RequestUsage), problems: [], failure, detail: null, costUsd: null, quota: null, withheld: [], providerToolUse: [],
});
/** The meter's two turns adding up to `total` (all input, cache reads and writes inside it). */
const twoTurns = (total: Tokens): MeteredRequest[] => {
  const first = { inputTokens: 1000, cacheReadTokens: 300, cacheWriteTokens: Math.min(20, total.cacheWriteTokens), outputTokens: 50, reasoningTokens: 5 };
  const second: Tokens = {
    inputTokens: total.inputTokens - first.inputTokens,
    cacheReadTokens: total.cacheReadTokens - first.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens - first.cacheWriteTokens,
    outputTokens: total.outputTokens - first.outputTokens,
    reasoningTokens: total.reasoningTokens - first.reasoningTokens,
  };
  return [req(1, first), req(2, second)];
};
/** Anthropic wire: what claude, pi and opencode report over it (2345 uncached + 789 read + 41 written). */
const ANTHROPIC = { inputTokens: 3175, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: 12 };
/** OpenAI wire: the input holds the cached tokens; nothing is written to a cache. */
const OPENAI = { inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 0, outputTokens: 133, reasoningTokens: 12 };
/** Gemini: output counts the thinking tokens. */
const GEMINI = { inputTokens: 2345, cacheReadTokens: 789, cacheWriteTokens: 0, outputTokens: 145, reasoningTokens: 12 };
const fiveHundreds = (n: number): MeteredRequest[] => Array.from({ length: n }, (_, i) => req(i + 1, null, 'server-error'));
const ok = { exitCode: 0, timedOut: false, limitHit: null } as const;

interface Row {
  readonly harness: HarnessName;
  readonly file: string;
  readonly exec: { exitCode: number | null; timedOut: boolean; limitHit: 'memory' | 'pids' | null };
  readonly metered: MeteredRequest[];
  readonly priceOf: () => Price | null;
  readonly tokensIn: number;
  readonly tokensOut: number;
  /** Undefined: no cost (a request had tokens but no price). */
  readonly costUsd: number | undefined;
  readonly voidReason: string | undefined;
  readonly timedOut: boolean;
  readonly flags: string[];
}

// cost: (uncached × 3 + cache read × 0.3 + cache write × 3.75 + output × 15) / 1e6
const rows: [string, Row][] = [
  ['claude-code success, meter agrees', { harness: 'claude-code', file: 'success.jsonl', exec: ok, metered: twoTurns(ANTHROPIC), priceOf: priced, tokensIn: 3175, tokensOut: 133, costUsd: 0.00942045, voidReason: undefined, timedOut: false, flags: [] }],
  ['claude-code 500s to every request: upstream-error', { harness: 'claude-code', file: 'failure.jsonl', exec: { ...ok, exitCode: 1 }, metered: fiveHundreds(11), priceOf: priced, tokensIn: 0, tokensOut: 0, costUsd: 0, voidReason: 'upstream-error', timedOut: false, flags: [] }],
  ['codex success: its cache writes disagree with the meter', { harness: 'codex', file: 'success.jsonl', exec: ok, metered: twoTurns(OPENAI), priceOf: priced, tokensIn: 2345, tokensOut: 133, costUsd: 0.0068997, voidReason: undefined, timedOut: false, flags: ['tokens: the harness reported cache write 41, the meter counted 0'] }],
  ['codex failure without a failed request: harness-error', { harness: 'codex', file: 'failure.jsonl', exec: { ...ok, exitCode: 1 }, metered: [], priceOf: priced, tokensIn: 0, tokensOut: 0, costUsd: 0, voidReason: 'harness-error', timedOut: false, flags: [] }],
  ['gemini-cli success, no price: no cost, a flag', { harness: 'gemini-cli', file: 'success.jsonl', exec: ok, metered: twoTurns(GEMINI), priceOf: unpriced, tokensIn: 2345, tokensOut: 145, costUsd: undefined, voidReason: undefined, timedOut: false, flags: ['cost: no list price for m'] }],
  ['gemini-cli success, killed at the wall clock: a plain timeout', { harness: 'gemini-cli', file: 'success.jsonl', exec: { exitCode: null, timedOut: true, limitHit: null }, metered: twoTurns(GEMINI), priceOf: priced, tokensIn: 2345, tokensOut: 145, costUsd: 0.0070797, voidReason: undefined, timedOut: true, flags: [] }],
  ['opencode anthropic success', { harness: 'opencode', file: 'anthropic-success.jsonl', exec: ok, metered: twoTurns(ANTHROPIC), priceOf: priced, tokensIn: 3175, tokensOut: 133, costUsd: 0.00942045, voidReason: undefined, timedOut: false, flags: [] }],
  ['opencode at the memory limit: the agent\'s, not void', { harness: 'opencode', file: 'failure.jsonl', exec: { exitCode: null, timedOut: false, limitHit: 'memory' }, metered: fiveHundreds(6), priceOf: priced, tokensIn: 0, tokensOut: 0, costUsd: 0, voidReason: undefined, timedOut: false, flags: ['tokens: the harness reported no token counts'] }],
  ['pi anthropic success (reasoning not reported, not compared)', { harness: 'pi', file: 'anthropic-success.jsonl', exec: ok, metered: twoTurns(ANTHROPIC), priceOf: priced, tokensIn: 3175, tokensOut: 133, costUsd: 0.00942045, voidReason: undefined, timedOut: false, flags: [] }],
  ['pi failure exits 0 after 500s: upstream-error all the same', { harness: 'pi', file: 'failure.jsonl', exec: ok, metered: fiveHundreds(12), priceOf: priced, tokensIn: 0, tokensOut: 0, costUsd: 0, voidReason: 'upstream-error', timedOut: false, flags: [] }],
  ['pi success, the harness counted tokens the meter did not see', { harness: 'pi', file: 'openai-success.jsonl', exec: ok, metered: [], priceOf: priced, tokensIn: 0, tokensOut: 0, costUsd: 0, voidReason: undefined, timedOut: false, flags: ['tokens: the harness reported input 2345, the meter counted 0', 'tokens: the harness reported cache read 789, the meter counted 0', 'tokens: the harness reported output 133, the meter counted 0'] }],
];

describe('accountHarnessSession on the golden streams', () => {
  it.each(rows)('%s', (_name, row) => {
    const result = accountHarnessSession({
      harness: readerNamed(row.harness),
      model: 'm',
      stream: stream(row.harness, row.file),
      exec: row.exec,
      metered: row.metered,
      priceOf: row.priceOf,
      idleTimeoutMs: 120_000,
      durationMs: 1234,
      extraFlags: [],
    });
    expect([result.tokensIn, result.tokensOut]).toEqual([row.tokensIn, row.tokensOut]);
    if (row.costUsd === undefined) expect(result).not.toHaveProperty('costUsd');
    else expect(result.costUsd).toBeCloseTo(row.costUsd, 12);
    expect(result.voidReason).toBe(row.voidReason);
    expect(result.error === undefined).toBe(row.voidReason === undefined);
    expect(result.timedOut).toBe(row.timedOut);
    expect(result.flags).toEqual(row.flags);
    expect(result.usage?.requests).toBe(row.metered.length);
    expect(result.requests).toHaveLength(row.metered.length);
    expect(result.requests?.map((r) => r.input)).toEqual(row.metered.map((r) => r.usage?.inputTokens ?? null));
    expect(result).toMatchObject({ exitCode: row.exec.exitCode, limitHit: row.exec.limitHit, durationMs: 1234 });
    expect(result.harness).toEqual(readerNamed(row.harness).parse(stream(row.harness, row.file), row.exec.exitCode));
  });

  it('keeps the network flags after its own', () => {
    const result = accountHarnessSession({
      harness: readerNamed('codex'), model: 'm', stream: stream('codex', 'success.jsonl'), exec: ok, metered: twoTurns(OPENAI),
      priceOf: unpriced, idleTimeoutMs: 1000, durationMs: 1, extraFlags: ['network: connect to 1.1.1.1:443 (refused)'],
    });
    expect(result.flags).toEqual(['tokens: the harness reported cache write 41, the meter counted 0', 'cost: no list price for m', 'network: connect to 1.1.1.1:443 (refused)']);
  });
});
