import { normalizeRule, ruleMatches } from './rules.js';

/**
 * Decides every query against the policy.
 *
 * @param {{ rules: Array<{ id: string, effect: 'allow' | 'deny', subject: string, action: string,
 *   resource: string, priority?: number }>, queries: Array<{ subject: string, action: string, resource: string }> }} input
 * @returns {{ results: Array<{ decision: 'allow' | 'deny', rule: string | null }> }}
 */
export function evaluate(input) {
  const rules = input.rules.map(normalizeRule);
  return { results: input.queries.map((query) => decide(rules, query)) };
}

function decide(rules, query) {
  const matching = rules.filter((rule) => ruleMatches(rule, query));
  if (matching.length === 0) return { decision: 'deny', rule: null };
  const winner = matching.sort(byPrecedence)[0];
  return { decision: winner.effect, rule: winner.id };
}

/** Higher priority first; at equal priority deny before allow; then the earlier rule. */
function byPrecedence(a, b) {
  return b.priority - a.priority || compareText(a.effect, b.effect) || a.index - b.index;
}

function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
