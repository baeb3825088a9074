import type { RequestUsage } from '../types.js';

/**
 * Builds a `RequestUsage` from counts already normalized (`inputTokens` total, `outputTokens`
 * including reasoning), and reports counts that break the invariants instead of hiding them.
 */
export function createRequestUsage(usage: RequestUsage, problems: string[]): RequestUsage {
  if (usage.cacheReadTokens + usage.cacheWriteTokens > usage.inputTokens) {
    problems.push(
      `cache tokens (read ${usage.cacheReadTokens} + write ${usage.cacheWriteTokens}) exceed input tokens ${usage.inputTokens}`,
    );
  }
  if (usage.reasoningTokens > usage.outputTokens) {
    problems.push(`reasoning tokens ${usage.reasoningTokens} exceed output tokens ${usage.outputTokens}`);
  }
  return usage;
}
