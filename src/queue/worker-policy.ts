import { parseHarnessSpec } from '../agents/index.js';
import { UserError } from '../errors.js';
import type { RunJob } from './jobs.js';

/**
 * Where a worker's API keys may go is the worker's decision, not the queue's (decision 014): the
 * model APIs it sends them to come from its own configuration, and a job asking for another is
 * refused before anything of it runs.
 */
export interface WorkerPolicy {
  /** Upstreams this worker relays model requests to with its keys: `vendor`, `openrouter`, base URLs (normalized). */
  readonly upstreams: readonly string[];
}

/** By default a worker's keys go to the model vendors' own APIs only (and OpenRouter's): the addresses built into bakeoff. */
export const DEFAULT_UPSTREAMS = ['vendor', 'openrouter'] as const;

/** `--allow-upstream` / `BAKEOFF_ALLOW_UPSTREAMS` (comma-separated) as a policy; none given: {@link DEFAULT_UPSTREAMS}. */
export function workerPolicy(allowed: readonly string[]): WorkerPolicy {
  if (allowed.length === 0) return { upstreams: [...DEFAULT_UPSTREAMS] };
  return { upstreams: [...new Set(allowed.map((a) => normalizeAllowed(a)))] };
}

function normalizeAllowed(value: string): string {
  const v = value.trim();
  if (v === 'vendor' || v === 'openrouter') return v;
  const base = normalizeBaseUrl(v);
  if (base === null) {
    throw new UserError(`--allow-upstream: expected vendor, openrouter or an http(s):// base URL without credentials, query or fragment, received ${JSON.stringify(value)}`);
  }
  return base;
}

/** A base URL as the metering proxy names it (origin + path without trailing slashes); null when it is not one. */
function normalizeBaseUrl(value: string): string | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    if (url.username || url.password || url.search || url.hash) return null;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/**
 * Why this worker refuses a job whose seal opened, or null when it may run it: the job must be
 * filed under its own run id, and a model agent's must ask for an upstream this worker allows
 * (`scripted:` ones run on loopback here and take no key; other agents open no upstream) and no
 * subscription login (a fleet never shares one).
 */
export function refusalOf(job: RunJob, jobId: string | undefined, policy: WorkerPolicy): string | null {
  if (job.runId !== jobId) return `it is filed as job ${JSON.stringify(jobId)}, but signed for run ${job.runId}: a signed job copied under another id`;
  if (!/^[0-9a-f]{64}$/.test(job.bundleSha256 ?? '') || !/^[0-9a-f]{64}$/.test(job.suiteHash ?? '') || (job.files && !/^[0-9a-f]{64}$/.test(job.files.sha256))) {
    return 'its suite hash or a bundle digest is not a sha256';
  }
  if (parseHarnessSpec(job.agentSpec) === null) return null;
  const upstream = job.agentOptions.upstream ?? 'vendor';
  if (!upstream.startsWith('scripted:')) {
    const asked = upstream === 'vendor' || upstream === 'openrouter' ? upstream : normalizeBaseUrl(upstream);
    if (asked === null || !policy.upstreams.includes(asked)) {
      return (
        `it asks for the model API ${JSON.stringify(upstream)}, which is not one this worker sends its API keys to ` +
        `(allowed here: ${policy.upstreams.join(', ')}; a worker's operator allows more with --allow-upstream)`
      );
    }
  }
  if (job.agentOptions.auth === 'subscription') return 'it asks for a subscription login, which a fleet never uses (each worker would rotate the login under the others)';
  return null;
}
