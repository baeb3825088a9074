import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { sha256 } from '../util/index.js';
import { keys, REFUSED, type AttemptStart, type RunJobResult, type SpentRequest } from './jobs.js';
import { openTexts, timedSeal, type FleetSeal, type Sealed } from './seal.js';

/** An attempt's start as read back, numbered by its place in the run's list. */
export type NumberedStart = AttemptStart & { readonly attempt: number };

/** What a finished job of a pending run comes to, as the coordinator is to store it (or not). */
export type HandBack =
  /** Not recorded: a worker refused the job, or what came back is not the run's sealed, current attempt's. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** Its artifacts were claimed by another results folder's coordinator: this folder's run is redone. */
  | { readonly kind: 'redo' }
  | {
      readonly kind: 'store';
      /** The sealed result, when a worker handed one back. */
      readonly result: RunJobResult | null;
      /** Set when the run is stored void: why (lost twice, its job failed, the worker's own void, damaged artifacts). */
      readonly voidDetail: string | null;
      /** The artifacts' bytes (checked against their sealed sha256) of a run result stored as it is. */
      readonly artifacts: Buffer | null;
      /** Every attempt whose sealed start opened, numbered. */
      readonly starts: readonly NumberedStart[];
      /** What each attempt other than the recorded one reported of its model requests. */
      readonly spent: ReadonlyMap<number, readonly SpentRequest[]>;
      /** Entries of the run's lists in Redis that were not sealed by a worker of this fleet (ignored). */
      readonly ignored: number;
      /** ms the fleet's seals and checks cost this run (the worker's, as it reported it, and the coordinator's opening of seals). */
      readonly trustMs: number | null;
    };

/**
 * Reads what a pending run's finished job came to, trusting only what is sealed with the fleet
 * secret: the result must open, be the result of the run's last registered attempt (its token:
 * an attempt is registered only under the job's lease, so a stale or duplicate attempt's result
 * is never the current one's), and its artifacts must match their sealed sha256. Attempt starts
 * and spent requests that do not open are left out (and counted).
 */
export async function openHandBack(input: { readonly redis: Redis; readonly seal: FleetSeal; readonly runId: string; readonly job: Job<Sealed, Sealed>; readonly state: 'completed' | 'failed' }): Promise<HandBack> {
  const { redis, runId, job } = input;
  const seal = timedSeal(input.seal);
  if (input.state === 'failed' && job.failedReason?.startsWith(REFUSED)) return { kind: 'refused', reason: job.failedReason };
  const texts = await redis.lrange(keys.attempts(runId), 0, -1);
  const starts = numbered(texts, seal);
  let result: RunJobResult | null = null;
  let workerMs = 0;
  if (input.state === 'completed') {
    const opened = seal.open<RunJobResult>('result', job.returnvalue);
    if (!opened.ok) {
      const what = job.returnvalue === null || typeof job.returnvalue !== 'object' ? `it handed back ${JSON.stringify(job.returnvalue) ?? 'nothing'}` : `it handed back an object with ${Object.keys(job.returnvalue).slice(0, 5).join(', ') || 'no field'}`;
      return { kind: 'refused', reason: `the result handed back for it was not sealed by a worker of this fleet: ${opened.why} (${what})` };
    }
    result = opened.value;
    const current = starts.at(-1);
    if (current === undefined || current.token !== result.token || current.attempt !== result.attempt) {
      return {
        kind: 'refused',
        reason: `the result handed back for it is attempt ${result.attempt}'s (by ${result.worker}), not the current attempt's (${current ? `attempt ${current.attempt} by ${current.worker}` : 'none registered'}): a stale attempt's result is never recorded`,
      };
    }
    workerMs = Number((job.returnvalue as { checksMs?: unknown }).checksMs) || 0;
  }
  let voidDetail: string | null = null;
  let artifacts: Buffer | null = null;
  if (result === null) {
    // why no worker handed anything back: lost twice (BullMQ gave up on the job), or its job failed
    voidDetail = /stalled more than allowable limit/.test(job.failedReason ?? '')
      ? `its worker was lost twice (${starts.length} attempt(s) abandoned): recorded void rather than run a third time (BullMQ: ${job.failedReason})`
      : `no worker finished this run: ${job.failedReason ?? 'its job failed'}`;
  } else if (result.kind === 'void') {
    voidDetail = `worker ${result.worker}: ${result.detail}`;
  } else {
    const bytes = await redis.getBuffer(result.artifacts.key);
    if (!bytes) return { kind: 'redo' };
    if (sha256(bytes) !== result.artifacts.sha256) voidDetail = `the artifacts worker ${result.worker} handed back do not match their checksum (${result.artifacts.sha256.slice(0, 12)}…): damaged in transit`;
    else artifacts = bytes;
  }
  const spent = new Map<number, SpentRequest[]>();
  let ignored = texts.length - starts.length;
  for (const a of starts) {
    if (a.attempt === result?.attempt) continue;
    const rows = openTexts<SpentRequest>(seal, 'spent', await redis.lrange(keys.spent(runId, a.attempt), 0, -1));
    spent.set(a.attempt, rows.values);
    ignored += rows.ignored;
  }
  const trustMs = result === null ? null : workerMs + seal.ms();
  return { kind: 'store', result, voidDetail, artifacts, starts, spent, ignored, trustMs };
}

/**
 * The sealed starts of a run's list, numbered by their place in it (an entry that does not open
 * keeps its place: numbers are the list's, as each worker was told when it registered).
 */
function numbered(texts: readonly string[], seal: FleetSeal): NumberedStart[] {
  const starts: NumberedStart[] = [];
  texts.forEach((text, i) => {
    const { values } = openTexts<AttemptStart>(seal, 'attempt', [text]);
    if (values[0]) starts.push({ ...values[0], attempt: i + 1 });
  });
  return starts;
}
