import type { AgentInfo } from '../../types.js';

/** How a subscription agent's access reads wherever the site names it. */
export const SUBSCRIPTION_ACCESS = 'subscription (list-price equivalent cost; billed: subscription)';

/**
 * How an agent reached its model, from what its runs recorded (`agent.auth`, `runtime.upstream`):
 * none for a built-in agent, the subscription (its cost the list-price equivalent, billed to the
 * plan), bakeoff's scripted model on a dry run, or an API key; `–` when no model API was recorded.
 */
export function modelAccess(agent: AgentInfo, upstreams: readonly string[]): string {
  if (agent.harness === 'builtin') return 'none (no model)';
  if (agent.auth === 'subscription') return SUBSCRIPTION_ACCESS;
  if (upstreams.length === 0) return '–';
  if (upstreams.every((u) => u.startsWith('scripted:'))) return "bakeoff's scripted model (a dry run), metered";
  return 'API key, metered';
}

/**
 * An agent's settings as its runs recorded them: the agents file's `args` and the names of its
 * `env` variables (values are never recorded), the harness's defaults, or why there is nothing.
 * An argument with a space, a quote or another character a shell would read is shown quoted.
 */
export function settingsText(agent: AgentInfo): string {
  if (agent.harness === 'builtin') return '– (a built-in agent)';
  const s = agent.settings;
  if (s === undefined) return 'not recorded (runs made before bakeoff recorded settings)';
  if (s.args.length === 0 && s.env.length === 0) return "none: the harness's defaults";
  return [
    ...(s.args.length > 0 ? [`args: ${s.args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}`] : []),
    ...(s.env.length > 0 ? [`env: ${s.env.join(', ')} (names only; values not recorded)`] : []),
  ].join('; ');
}
