import type { LeaderboardRun } from '../../types.js';

/** How model agents' tokens and cost were measured, for every rendering of a report. */
export interface MeteringNotes {
  /** Model APIs the runs talked to (`runtime.upstream`), sorted. */
  readonly upstreams: readonly string[];
  /** Price sources (`runtime.prices`): the catalog, its date, any prices file. */
  readonly prices: readonly string[];
  /** Runs with a flag (e.g. the harness's token counts disagree with the meter). */
  readonly flaggedRuns: number;
  /** Agents run on a subscription (their cost is the list-price equivalent; billed to the plan), sorted; absent in older views. */
  readonly subscriptionAgents?: readonly string[];
  /** Whether any model agent ran on an API key (not a subscription); absent in older views. */
  readonly apiAgents?: boolean;
}

export function meteringNotes(runs: readonly LeaderboardRun[]): MeteringNotes {
  const distinct = (key: string) => [...new Set(runs.map((r) => r.runtime[key]).filter((v): v is string => v !== undefined))].sort();
  const subscriptionAgents = [...new Set(runs.filter((r) => r.agent.auth === 'subscription').map((r) => r.agent.id))].sort();
  const apiAgents = runs.some((r) => r.runtime.upstream !== undefined && r.agent.auth !== 'subscription');
  return { upstreams: distinct('upstream'), prices: distinct('prices'), flaggedRuns: runs.filter((r) => (r.flags ?? []).length > 0).length, subscriptionAgents, apiAgents };
}
