import { isHarnessName, type HarnessName } from './harnesses/index.js';

/** A model in a harness at an effort level: `<harness>:<model>[@effort]`. */
export interface HarnessSpec {
  readonly harness: HarnessName;
  readonly model: string;
  /** As written: a level, `lowest`, `highest`, or null for the harness's default (resolved by `effort-levels`). */
  readonly effort: string | null;
}

/**
 * Reads `<harness>:<model>[@effort]` (e.g. `claude-code:claude-sonnet-4-5@high`,
 * `pi:anthropic/claude-sonnet-4-5`, `codex:gpt-5.5@lowest`); null when `spec` does not name a
 * harness. The effort is what follows the last `@`, so model ids may hold `/` and `:`.
 */
export function parseHarnessSpec(spec: string): HarnessSpec | { error: string } | null {
  const colon = spec.indexOf(':');
  if (colon <= 0) return null;
  const harness = spec.slice(0, colon);
  if (!isHarnessName(harness)) return null;
  let model = spec.slice(colon + 1);
  let effort: string | null = null;
  const at = model.lastIndexOf('@');
  if (at >= 0) {
    effort = model.slice(at + 1);
    model = model.slice(0, at);
    if (!effort) return { error: `"${spec}": expected an effort level after "@", received nothing` };
  }
  if (!model.trim() || /\s/.test(model)) return { error: `"${spec}": expected a model id after "${harness}:" (no spaces), received ${JSON.stringify(model)}` };
  return { harness, model, effort };
}
