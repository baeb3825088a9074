/**
 * `model_reasoning_effort` levels per model, lowest first, copied from the model catalog baked
 * into the codex 0.171.0 binary (`supported_reasoning_levels` of its 14 entries, extracted from
 * `vendor/x86_64-unknown-linux-musl/bin/codex`). Codex passes the value through unchecked
 * (even an unknown string reaches `body.reasoning.effort`); `ultra` is sent as `max` plus
 * `reasoning.context: "all_turns"`.
 */
const CATALOG: Readonly<Record<string, readonly string[]>> = {
  'gpt-5.5': ['low', 'medium', 'high', 'xhigh'],
  'gpt-5.6-luna': ['low', 'medium', 'high', 'xhigh', 'max'],
  'gpt-5.6-sol': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-5.6-terra': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-6-astra': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-6-luna': ['low', 'medium', 'high', 'xhigh', 'max'],
  'gpt-6-sol': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-6.1-sol': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-6.1-terra': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-6.2-astra': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-6.2-sol': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-daybreak-blue-latest': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'gpt-daybreak-red-latest': ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'],
  'codex-auto-review': ['low', 'medium', 'high', 'xhigh', 'max'],
};

/** Models outside the catalog run on Codex's fallback metadata; the three levels every reasoning model takes. */
const UNCATALOGUED = ['low', 'medium', 'high'] as const;

export function codexEfforts(model: string): readonly string[] {
  return CATALOG[model] ?? UNCATALOGUED;
}
