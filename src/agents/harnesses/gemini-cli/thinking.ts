/**
 * Gemini CLI 0.61.0 has no effort flag. bakeoff maps an effort to the thinking knob its
 * model-config aliases set (bundle `DEFAULT_MODEL_CONFIGS`) through settings
 * `modelConfigs.overrides`:
 * - Gemini 2.x (`chat-base-2.5`: `thinkingBudget` 8192): low 1024, medium 8192 (the CLI's
 *   own default), high 24576 (the largest budget every 2.5 model accepts).
 * - Gemini 3 and later, Gemma (`chat-base-3`: `thinkingLevel` HIGH): the API's own levels,
 *   `thinkingLevel` = the effort upper-cased. Flash models take minimal/low/medium/high, Gemma
 *   minimal/high, the others low/high (the sets OpenCode 1.18.33 offers for the same models).
 * - Anything else: no effort.
 */
export type ThinkingConfig = { readonly thinkingBudget: number } | { readonly thinkingLevel: string };

const BUDGETS: Readonly<Record<string, number>> = { low: 1024, medium: 8192, high: 24576 };

export function geminiEfforts(model: string): readonly string[] {
  const id = model.toLowerCase();
  if (/^gemini-2[.-]/.test(id)) return Object.keys(BUDGETS);
  if (id.startsWith('gemma-')) return ['minimal', 'high'];
  if (!/^gemini-([3-9]|\d\d)/.test(id)) return [];
  return id.includes('flash') ? ['minimal', 'low', 'medium', 'high'] : ['low', 'high'];
}

/** The `thinkingConfig` override for a level of `geminiEfforts(model)`, or null when the model has none. */
export function thinkingConfigFor(model: string, effort: string): ThinkingConfig | null {
  if (!geminiEfforts(model).includes(effort)) return null;
  const budget = /^gemini-2[.-]/.test(model.toLowerCase()) ? BUDGETS[effort] : undefined;
  return budget === undefined ? { thinkingLevel: effort.toUpperCase() } : { thinkingBudget: budget };
}
