import type { ReplayRule } from '../view/read-report-controls.js';

/** `replay rule: 2 replays per task, allowed drift 0`, or `no replay rule`. */
export function formatReplayRule(rule: ReplayRule | null): string {
  return rule === null
    ? 'no replay rule'
    : `replay rule: ${rule.replays} replays per task, allowed drift ${rule.allowedDrift}`;
}
