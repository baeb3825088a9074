import { UserError } from '../../errors.js';
import { nearest } from '../../util/index.js';
import type { Harness } from './types.js';

export type { Harness, HarnessReport, HarnessSetup, HarnessTokens, SetupInput, StreamReader } from './types.js';
export type { TranscriptEntry } from './transcript.js';

/**
 * The coding-agent CLIs bakeoff drives, by the name used in agent specs: the one list of them.
 * Adding a harness is its folder (`./<name>/`, exporting a `Harness<'<name>'>`) and one line
 * here (each line imports its folder, so the line is the whole change); names, messages,
 * `bakeoff agents`, install pins and the real-CLI tests derive from it. Order is listing order.
 */
export const HARNESSES = {
  'claude-code': (await import('./claude-code/index.js')).claudeCode,
  codex: (await import('./codex/index.js')).codex,
  pi: (await import('./pi/index.js')).pi,
  opencode: (await import('./opencode/index.js')).opencode,
  'gemini-cli': (await import('./gemini-cli/index.js')).geminiCli,
} as const satisfies { readonly [name: string]: Harness };

/** The name of a registered harness, the `<harness>` of `<harness>:<model>[@effort]`. */
export type HarnessName = keyof typeof HARNESSES;

/** Every registry line's key is its harness's own name (a compile error otherwise). */
HARNESSES satisfies { readonly [N in HarnessName]: Harness<N> };

/** The registered names, in registry order. */
export const HARNESS_NAMES = Object.keys(HARNESSES) as readonly HarnessName[];

/** True when `name` is a registered harness (not merely an Object property like `toString`). */
export function isHarnessName(name: string): name is HarnessName {
  return Object.hasOwn(HARNESSES, name);
}

/**
 * What a harness name must be, for an error about `name`: `one of …`, with a "did you mean"
 * when `name` is a typo of a registered one or a part of it (`gemini` → `gemini-cli`).
 */
export function expectedHarness(name: string): string {
  const near = nearest(name, HARNESS_NAMES) ?? (name.length >= 2 ? HARNESS_NAMES.find((n) => n.startsWith(name) || name.startsWith(n)) : undefined);
  return `one of ${HARNESS_NAMES.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`;
}

/** An agent spec that shows the harness's example model and effort, for messages. */
export function exampleSpec(name: HarnessName): string {
  return `${name}:${HARNESSES[name].example}`;
}

/** A harness's example, `<model>[@effort]`, taken apart. */
export function exampleOf(harness: Harness): { readonly model: string; readonly effort: string | null } {
  const at = harness.example.lastIndexOf('@');
  return at < 0 ? { model: harness.example, effort: null } : { model: harness.example.slice(0, at), effort: harness.example.slice(at + 1) };
}

/** The harness of that name; a UserError listing the known ones otherwise. */
export function harnessNamed(name: string): Harness {
  if (isHarnessName(name)) return HARNESSES[name];
  throw new UserError(`harness "${name}": expected ${expectedHarness(name)}, received "${name}"`);
}
