import type { MeteringNotes } from '../view/metering-notes.js';

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
