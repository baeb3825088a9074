import os from 'node:os';
import path from 'node:path';
import { resolveAgents, type Agent } from '../agents/index.js';
import { createHackerAgent } from '../admit/index.js';
import type { ProbeCache } from '../util/index.js';
import type { Suite } from '../suite/index.js';
import { pricedUpstream } from './priced-upstream.js';

export interface HackersRequest {
  /** `--hacker` specs: any agent spec `bakeoff run --agent` takes. */
  readonly specs: readonly string[];
  /** Where model hackers' requests go: `vendor` (default), `openrouter`, a base URL, `scripted:<script>`. */
  readonly upstream?: string;
  /** A prices file overriding the catalog's list prices. */
  readonly prices?: string;
  /** Seconds without a byte from the model API before a request counts as hung (default 120). */
  readonly upstreamIdleTimeoutSec?: number;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cacheDir: string;
  readonly probes: ProbeCache;
}

export interface Hackers {
  /** The agents, each wrapped by createHackerAgent (ids `hacker:<spec id>`). */
  readonly agents: readonly Agent[];
  /** What hacker runs record beside the suite's runtimes: the model upstream and price source, when a model hacker was asked for. */
  readonly runtime: Readonly<Record<string, string>>;
  /** Closes the model upstream, if one was opened. */
  close(): Promise<void>;
}

/**
 * The hacker agents of `validate --hacker`, resolved as `bakeoff run` resolves its `--agent`
 * specs (the same forms, the same model upstream and metering), each told the shipped hacker
 * prompt before the task's (admit/hacker-agent.ts).
 */
export async function resolveHackers(suite: Suite, request: HackersRequest): Promise<Hackers> {
  const metered = pricedUpstream({ upstream: request.upstream ?? 'vendor', pricesFile: request.prices ? path.resolve(request.cwd, request.prices) : undefined, cwd: request.cwd, env: request.env });
  const { agents, upstream } = await resolveAgents(request.specs, {
    cwd: request.cwd,
    forbiddenRoots: [suite.dir, request.cacheDir, path.join(os.tmpdir(), 'bakeoff-scratch')],
    suiteTasks: new Map(suite.tasks.map((t) => [t.id, t.orders.length])),
    openUpstream: metered.openUpstream,
    priceOf: metered.priceOf,
    idleTimeoutMs: (request.upstreamIdleTimeoutSec ?? 120) * 1000,
    env: request.env,
    probes: request.probes,
  }).catch((error: unknown) => {
    throw error instanceof Error && error.message.startsWith('--agent') ? Object.assign(error, { message: error.message.replace(/^--agent/, '--hacker') }) : error;
  });
  return {
    agents: agents.map((agent) => createHackerAgent(agent)),
    runtime: upstream && metered.pricesSource() !== undefined ? { upstream: upstream.name, prices: metered.pricesSource()! } : {},
    close: async () => upstream?.close(),
  };
}
