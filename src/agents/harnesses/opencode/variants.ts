import { wireFormatOfProvider } from '../provider-model.js';

/**
 * OpenCode 1.18.33's `--variant` names per model, lowest first: a port of its
 * `ProviderTransform.variants` (read from the compiled binary) for the three AI SDK packages
 * bakeoff configures: `@ai-sdk/anthropic`, `@ai-sdk/openai`, `@ai-sdk/openai-compatible`.
 * OpenCode silently ignores a variant its table lacks (no thinking is sent), so this must agree.
 * OpenCode offers variants only for reasoning models; bakeoff marks the model as reasoning in the
 * config whenever an effort is asked for (see opencode-json.ts), so that gate is not ported, and
 * the release-date gates for OpenAI use the dates of the models they could apply to (all before
 * 2025-11-13, so they add nothing).
 */
const WIDE = ['low', 'medium', 'high'] as const;

export function opencodeVariants(model: string): readonly string[] {
  const lower = model.slice(model.indexOf('/') + 1).toLowerCase();
  const isGlm52 = ['glm-5.2', 'glm-5-2', 'glm-5p2'].some((s) => lower.includes(s));
  const format = wireFormatOfProvider(model);
  if (lower.includes('minimax-m3') && format !== 'openai-responses') return ['none', 'thinking'];
  if (isGlm52 && format !== 'openai-responses') return ['high', 'max'];
  if (format === 'anthropic-messages' && (lower.includes('kimi') || lower.includes('moonshot'))) return ['low', 'medium', 'high', 'xhigh', 'max'];
  if (hasNoVariants(lower, isGlm52)) return [];
  if (lower.includes('grok') && lower.includes('grok-3-mini')) return ['low', 'high'];
  if (format === 'anthropic-messages') return anthropicVariants(lower);
  if (format === 'openai-responses') return openaiVariants(lower);
  if (lower.includes('north-mini-code')) return ['none', 'high'];
  return lower.includes('deepseek-v4') ? [...WIDE, 'max'] : WIDE;
}

function hasNoVariants(id: string, isGlm52: boolean): boolean {
  const names = ['deepseek-chat', 'deepseek-reasoner', 'deepseek-r1', 'deepseek-v3', 'minimax', 'kimi', 'k2p', 'qwen', 'big-pickle'];
  return names.some((n) => id.includes(n)) || (id.includes('glm') && !isGlm52);
}

/** Adaptive-thinking efforts for Claude ≥ 4.6; opus-4-5 takes efforts; older Claude budgets `high`/`max`. */
function anthropicVariants(id: string): readonly string[] {
  if (isClaudeAtLeast47(id)) return ['low', 'medium', 'high', 'xhigh', 'max'];
  if (['opus-4-6', 'opus-4.6', '4-6-opus', '4.6-opus', 'sonnet-4-6', 'sonnet-4.6', '4-6-sonnet', '4.6-sonnet'].some((s) => id.includes(s))) {
    return ['low', 'medium', 'high', 'max'];
  }
  if (id.includes('opus-4-5') || id.includes('opus-4.5')) return WIDE;
  return ['high', 'max'];
}

function isClaudeAtLeast47(id: string): boolean {
  if (!id.includes('claude-')) return false;
  const match = /claude-(?:[a-z]+-)?(\d+)(?:[.-](\d{1,2}))?(?:[.@-]|$)/i.exec(id);
  if (!match) return true;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 7);
}

const GPT5 = /(?:^|\/)gpt-5(?:[.-]|$)/;
const GPT5_MINOR = /(?:^|\/)gpt-5[.-](\d+)(?:[.-]|$)/;

/** OpenCode's OpenAI table: by GPT-5 generation, codex and pro variants. */
function openaiVariants(id: string): readonly string[] {
  const minor = Number(GPT5_MINOR.exec(id)?.[1]) || undefined;
  if (id.includes('deep-research')) return ['medium'];
  if (GPT5.test(id) && id.includes('-chat')) return minor === undefined ? [] : ['medium'];
  if (/(?:^|\/)gpt-5[.-]?pro(?:[.-]|$)/.test(id)) return ['high'];
  if (GPT5.test(id) && id.includes('codex')) {
    if (minor !== undefined && minor >= 3) return ['none', 'low', 'medium', 'high', 'xhigh'];
    if (id.includes('codex-max') || (minor !== undefined && minor >= 2)) return [...WIDE, 'xhigh'];
    return WIDE;
  }
  if (/(?:^|\/)gpt-5[.-]\d+[.-]pro(?:[.-]|$)/.test(id)) return ['medium', 'high', 'xhigh'];
  if (minor === 1) return ['none', ...WIDE];
  if (minor !== undefined) return ['none', ...WIDE, 'xhigh'];
  return GPT5.test(id) ? ['minimal', ...WIDE] : WIDE;
}
