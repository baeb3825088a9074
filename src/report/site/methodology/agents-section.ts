import { plural } from '../../render/plural.js';
import type { LeaderboardView } from '../../view/leaderboard-view.js';
import { listWords } from './list-words.js';
import type { MethodologySection } from './section.js';

/**
 * The agents: how many, which are built-in, and how the model agents reached their models, read
 * from what their runs recorded (`agent.auth`, `runtime.upstream`): an API key (billed at the
 * cost shown), a subscription (the cost is the list-price equivalent, billed to the plan), or
 * bakeoff's scripted model on a dry run. Pure.
 */
export function agentsSection(view: LeaderboardView): MethodologySection {
  const paragraphs = [
    `${plural(view.agents.length, 'agent')} ran; each is named by harness, version, model and reasoning effort in the table below, as recorded with its first run, ` +
      'and its page gives its settings (the arguments and environment variable names it was run with).',
  ];
  const builtins = view.agents.filter((a) => a.agent.harness === 'builtin').map((a) => a.agent.id);
  if (builtins.length > 0) {
    paragraphs.push(`${builtins.join(', ')} ${builtins.length === 1 ? 'is a' : 'are'} built-in reference ${builtins.length === 1 ? 'agent' : 'agents'} (gold applies the reference change, noop changes nothing, patch applies a recorded change, command runs a program): no model is involved.`);
  }
  const models = view.agents.filter((a) => a.agent.harness !== 'builtin');
  const subscription = models.filter((a) => a.agent.auth === 'subscription');
  const api = models.filter((a) => a.agent.auth !== 'subscription');
  const upstreams = view.metering.upstreams;
  if (upstreams.length > 0 && upstreams.every((u) => u.startsWith('scripted:'))) {
    paragraphs.push(`This is a dry run: the model agents' CLIs were answered by bakeoff's scripted model (${upstreams.join(', ')}), through its metering proxy, not by real models.`);
  } else if (api.length > 0) {
    paragraphs.push(
      `${listWords(api.map((a) => a.agent.id))} reached ${upstreams.join(', ') || 'a model API that was not recorded'} with an API key, through bakeoff's metering proxy, and ${api.length === 1 ? 'is' : 'are'} billed at the cost shown` +
        (subscription.length === 0 ? '; no run used a subscription.' : '.'),
    );
  }
  if (subscription.length > 0) {
    const plans = [...new Set(subscription.flatMap((a) => (a.agent.plan ? [a.agent.plan] : [])))].sort();
    paragraphs.push(
      `${listWords(subscription.map((a) => a.agent.id))} ran on a subscription${plans.length > 0 ? ` (${plans.join(', ')} plan)` : ''}, with the owner's login held by bakeoff on the host, through its metering proxy: ` +
        "the cost shown is the list-price equivalent of the metered tokens; billed: subscription (the plan's quota, not an API bill)" +
        (api.length === 0 ? '. No model agent used an API key.' : '.'),
    );
  }
  return { id: 'agents', heading: 'The agents', paragraphs };
}
