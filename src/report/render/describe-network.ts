import type { LeaderboardView } from '../view/leaderboard-view.js';

/** The network control in a few words, for the line that names the suite: `closed web`, `OPEN WEB`; null when unknown. */
export function networkLabel(view: Pick<LeaderboardView, 'network'>): string | null {
  if (view.network === null) return null;
  return view.network === 'none' ? 'closed web' : 'OPEN WEB (model-api+web)';
}

/**
 * What the network control meant for the numbers, under a leaderboard: on the open web, that the
 * provider's web tools were let through and the runs are never ranked or compared with closed-web
 * runs; on the closed web, what the web attempts column counts (only when some agent was metered).
 */
export function describeNetwork(view: Pick<LeaderboardView, 'network' | 'agents'>): string[] {
  const metered = view.agents.some((a) => a.webAttempts !== null);
  if (view.network === 'model-api+web') {
    return [
      'Open web (network: model-api+web): the model API could search and fetch the web for the agent (its provider-run tools and URL inputs were let through, ' +
        'and each harness kept its own web tools). Web attempts count the provider tools and URL inputs its requests carried. ' +
        'These runs are never ranked or compared with closed-web runs.',
    ];
  }
  if (view.network === 'none' && metered) {
    return [
      'Closed web: the model API was the only network, and it fetched nothing for the agent. Web attempts count the provider-run tools ' +
        '(web search and fetch, code execution, hosted MCP …) and URL inputs the agent\'s model requests asked for; the metering proxy withheld or refused every one.',
    ];
  }
  return [];
}
