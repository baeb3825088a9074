import type { WireFormat } from '../../meter/index.js';

/**
 * Token counts of a whole session as the harness itself reported them, normalized like the
 * metering proxy's `RequestUsage`: `inputTokens` is ALL input (uncached + cache read + cache
 * write), `outputTokens` includes reasoning. A null class: this harness does not report it.
 */
export interface HarnessTokens {
  readonly inputTokens: number;
  readonly cacheReadTokens: number | null;
  readonly cacheWriteTokens: number | null;
  readonly outputTokens: number;
  readonly reasoningTokens: number | null;
}

/** What the harness's machine-readable stream says about one session. */
export interface HarnessReport {
  readonly tokens: HarnessTokens | null;
  /** Cost as the harness computed it (Claude Code's total_cost_usd, pi/OpenCode from their config), else null. */
  readonly costUsd: number | null;
  /** Model turns (requests answered) as the harness counts them, else null. */
  readonly turns: number | null;
  /** The agent's final answer text, or null when there was none. */
  readonly finalMessage: string | null;
  /** Error events/messages from the stream, in order. */
  readonly errors: readonly string[];
  /**
   * True when the harness says the session failed, whatever its exit code: an error event,
   * Claude Code's `is_error`, pi's `stopReason: "error"`, Codex `turn.failed`, Gemini
   * `result.status: "error"`, OpenCode `type: "error"`. Also true when the stream ends without
   * the harness's final event (a crash or a kill) and when the process exited non-zero;
   * a null exit code alone (killed on timeout) leaves the verdict to the stream.
   */
  readonly failed: boolean;
  /** Model named by the stream, else null. */
  readonly model: string | null;
  /** Harness version named by the stream (Claude Code's init event), else null. */
  readonly version: string | null;
}

/** Everything `Harness.setup` needs for one session. All paths are as seen inside the sandbox. */
export interface SetupInput {
  /** npm prefix the pinned package is installed in (`<installDir>/node_modules/...`). */
  readonly installDir: string;
  /** HOME inside the sandbox; `homeFiles` are copied there before the CLI starts. */
  readonly home: string;
  /** The workspace: the CLI's working directory. */
  readonly workspace: string;
  readonly prompt: string;
  /** Model id as the user wrote it after `<harness>:` (pi/opencode: `<provider>/<model>`). */
  readonly model: string;
  /** One of `efforts(model)`, already resolved (`@lowest` → the first); null: the harness default. */
  readonly effort: string | null;
  /** The metering proxy as the sandbox sees it: `http://127.0.0.1:<port>` (no path). */
  readonly baseUrl: string;
  /** A dummy key: the real one never enters the sandbox (the proxy injects it). */
  readonly apiKey: string;
  /** List prices per million tokens, when known, for harnesses that compute cost from their config. */
  readonly prices: { readonly input: number; readonly cacheRead: number; readonly cacheWrite: number; readonly output: number } | null;
}

/** How to start the CLI for one session. */
export interface HarnessSetup {
  /** Files to create under HOME before the CLI starts (path relative to HOME → content). */
  readonly homeFiles: Readonly<Record<string, string>>;
  /**
   * The command: argv[0] is an absolute path under `installDir` (or a program on PATH). The
   * prompt is in `stdin` where the CLI reads it byte-exact, else in argv (pi, which trims what
   * stdin holds; a prompt is at most the suite's MAX_PROMPT_BYTES, so it always fits one argument). Further
   * CLI options go before the first `--` when there is one (the prompt follows it), else at the end.
   */
  readonly argv: readonly string[];
  /** Text for the CLI's stdin (Claude Code, Codex, Gemini CLI and OpenCode read the prompt there, byte-exact); else stdin is /dev/null. */
  readonly stdin?: string;
  /** Variables added to the session's environment (PATH, HOME, TMPDIR, locale are already set). */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * One coding-agent CLI: how to install it, start it headless, and read what it printed. A
 * harness is one folder `agents/harnesses/<name>/` whose `index.ts` exports this object, plus
 * its line in the registry (`agents/harnesses/index.ts`); the folder also holds
 * `test-recipe.ts`, how the real-CLI test points the CLI at the scripted model server.
 * `Name` is the registry key and the folder's name (the `<harness>` of agent specs).
 */
export interface Harness<Name extends string = string> {
  readonly name: Name;
  /**
   * npm package and the pinned version bakeoff installs (`bakeoff agents install`) and drives;
   * the real-CLI tests fail when the installed CLI reports another version.
   */
  readonly npmPackage: string;
  readonly version: string;
  /**
   * A model this harness takes and an effort level it lists for that model, as typed after
   * `<name>:` in an agent spec (`<model>@<effort>`, or `<model>` when it has no efforts); shown
   * by `bakeoff agents` and in messages.
   */
  readonly example: string;
  /** The executable, relative to the install prefix (e.g. `node_modules/.bin/claude`). */
  readonly bin: string;
  /** Arguments that print the version (default `--version`), and a parser for what they print, stdout + stderr (default: the first `x.y.z`). */
  readonly versionArgs?: readonly string[];
  parseVersion?(output: string): string | null;
  /** Effort levels this harness accepts for the model, lowest first; empty: no effort setting. */
  efforts(model: string): readonly string[];
  /** The wire format this harness speaks for the model (pi/OpenCode: chosen by provider). */
  wireFormat(model: string): WireFormat;
  setup(input: SetupInput): HarnessSetup;
  /** Reads the CLI's stdout (the machine-readable stream). Never throws. */
  parse(stdout: string, exitCode: number | null): HarnessReport;
}
