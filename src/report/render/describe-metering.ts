import type { RunRecord } from '../../types.js';

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

export function meteringNotes(runs: readonly RunRecord[]): MeteringNotes {
  const distinct = (key: string) => [...new Set(runs.map((r) => r.runtime[key]).filter((v): v is string => v !== undefined))].sort();
  const subscriptionAgents = [...new Set(runs.filter((r) => r.agent.auth === 'subscription').map((r) => r.agent.id))].sort();
  const apiAgents = runs.some((r) => r.runtime.upstream !== undefined && r.agent.auth !== 'subscription');
  return { upstreams: distinct('upstream'), prices: distinct('prices'), flaggedRuns: runs.filter((r) => (r.flags ?? []).length > 0).length, subscriptionAgents, apiAgents };
}

/** The notes as sentences; none when no model agent ran. */
export function describeMetering(notes: MeteringNotes): string[] {
  if (notes.upstreams.length === 0) return [];
  const lines = [
    `Model agents' tokens are counted by bakeoff's metering proxy (the same way for every harness); cost = metered tokens × list prices (${notes.prices.join('; ') || 'no price source recorded'}), or the provider's charge where it reports one.`,
    `Model API: ${notes.upstreams.join(', ')}.${notes.upstreams.every((u) => u.startsWith('scripted:')) ? ' Scripted: no tokens were spent; token and cost figures are the script\'s.' : ''}`,
  ];
  const subscription = notes.subscriptionAgents ?? [];
  if (subscription.length > 0) {
    lines.push(`Subscription runs (${subscription.join(', ')}): cost is the list-price equivalent of the metered tokens; billed: subscription (the plan's quota, not an API bill).${notes.apiAgents === false ? '' : ' API runs: billed at the cost shown.'}`);
  }
  if (notes.flaggedRuns > 0) lines.push(`${notes.flaggedRuns} run(s) carry flags (e.g. the harness's own token counts disagree with the meter): see the JSON report.`);
  return lines;
}
