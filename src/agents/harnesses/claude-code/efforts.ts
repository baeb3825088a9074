/**
 * Claude Code 2.1.332's `--effort` levels per model, lowest first.
 *
 * Observed against a stub server (body `output_config.effort` for every model × level, 2026-11-30)
 * and matching the binary's own gates (`strings claude.exe`: the effort, `max_effort` and
 * `xhigh_effort` checks with their hard-coded model lists):
 * - claude-3-*, opus-4-0/4-1, sonnet-4-0/4-5, haiku-4-5: the flag is accepted and NOT sent;
 * - opus-4-5: low, medium, high (xhigh and max are sent as high);
 * - sonnet-4-6, opus-4-6: low, medium, high, max (xhigh is sent as high);
 * - every other id, unknown ones included (first-party default): low, medium, high, xhigh, max.
 * A `-YYYYMMDD` snapshot suffix is ignored, as the binary does.
 */
const NO_EFFORT = new Set(['claude-opus-4-0', 'claude-opus-4-1', 'claude-sonnet-4-0', 'claude-sonnet-4-5', 'claude-haiku-4-5']);
const UP_TO_HIGH = new Set(['claude-opus-4-5']);
const NO_XHIGH = new Set(['claude-sonnet-4-6', 'claude-opus-4-6']);

export function claudeEfforts(model: string): readonly string[] {
  const id = model.toLowerCase().replace(/-\d{8}$/, '');
  if (id.includes('claude-3-') || NO_EFFORT.has(id)) return [];
  if (UP_TO_HIGH.has(id)) return ['low', 'medium', 'high'];
  if (NO_XHIGH.has(id)) return ['low', 'medium', 'high', 'max'];
  return ['low', 'medium', 'high', 'xhigh', 'max'];
}
