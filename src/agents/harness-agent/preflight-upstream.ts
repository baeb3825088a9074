import { lookup } from 'node:dns/promises';
import { InfraError } from '../../errors.js';
import type { Upstream, WireFormat } from '../../meter/index.js';

/** How long the whole check of one upstream may take: a bake that cannot reach its model API stops within seconds. */
const PREFLIGHT_MS = 10_000;

/**
 * Checks, before the first session, that each base URL the agents' wire formats go to resolves
 * and answers a cheap request (`GET <base>/v1/models`, without any key): any HTTP answer, even
 * an error status (401 included), means it is there. One that does not
 * resolve, refuses the connection or does not answer in 10 s stops the bake (InfraError, exit
 * 3) with a sentence naming the host — instead of every run ending void `upstream-unreachable`.
 */
export async function preflightUpstream(upstream: Upstream, formats: readonly WireFormat[], spec: string): Promise<void> {
  const bases = new Set((formats.length > 0 ? formats : [null]).map((format) => upstream.baseUrl(format)));
  await Promise.all([...bases].map((base) => reach(base, spec)));
}

async function reach(base: string, spec: string): Promise<void> {
  const url = new URL(`${base.replace(/\/+$/, '')}/v1/models`);
  const host = url.hostname;
  const fail = (why: string, cause?: unknown): never => {
    throw new InfraError(`--upstream ${spec}: the model API at ${host} ${why}; no session was started. Check --upstream, and this machine's network and DNS to ${host}`, { cause });
  };
  try {
    await lookup(host.replace(/^\[|\]$/g, ''));
  } catch (error) {
    fail(`does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, error);
  }
  try {
    // no key: reachability does not need one, and a key goes only where a session's request goes
    // (a fleet coordinator never sends its own, and a worker refuses a model API its allow-list does not name)
    const answer = await fetch(url, { signal: AbortSignal.timeout(PREFLIGHT_MS), redirect: 'manual' });
    await answer.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const timedOut = (error as Error).name === 'TimeoutError';
    fail(timedOut ? `did not answer within ${PREFLIGHT_MS / 1000} s (${url.origin})` : `could not be reached at ${url.origin} (${cause?.code ?? cause?.message ?? (error as Error).message})`, error);
  }
}
