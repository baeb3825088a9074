import { matchAction, matchResource, matchSubject } from './patterns.js';

/** A rule with its defaults filled in and its position in the policy. */
export function normalizeRule(rule, index) {
  return {
    id: rule.id,
    effect: rule.effect,
    subject: rule.subject,
    action: rule.action,
    resource: rule.resource,
    priority: rule.priority ?? 0,
    index,
  };
}

/** Whether a rule applies to a query. */
export function ruleMatches(rule, query) {
  return (
    matchSubject(rule.subject, query.subject) &&
    matchAction(rule.action, query.action) &&
    matchResource(rule.resource, query.resource)
  );
}
