import type { WireFormat } from '../../meter/index.js';
import type { AgentWebTools } from '../../types.js';
import type { TranscriptEntry } from './transcript.js';

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
  /** A level of the model's catalog, already resolved (`@lowest` → its lowest); null: the harness default. */
  readonly effort: string | null;
  /**
   * The model catalog the levels were resolved from, as the CLI printed it (`Harness.catalog`),
   * for the CLI to use in the session too (Codex: `model_catalog_json`); absent for table harnesses.
   */
  readonly catalog?: string;
  /** The metering proxy as the sandbox sees it: `http://127.0.0.1:<port>` (no path). */
  readonly baseUrl: string;
  /** A dummy key: the real one never enters the sandbox (the proxy injects it). */
  readonly apiKey: string;
  /**
   * Set for a subscription run (Codex on a ChatGPT plan, Claude Code on a Claude plan): the CLI
   * gets dummy credentials of the subscription's shape instead of an API key (the proxy swaps
   * in the real token); `plan` is the login's plan, for claims the CLI reads.
   */
  readonly subscription?: { readonly plan: string | null };
  /**
   * `network: model-api+web` (the suite lets the web in): the CLI keeps its own web tools.
   * Absent or false, the closed web: the setup turns them off (`Harness.webTools`).
   */
  readonly openWeb?: boolean;
  /** List prices per million tokens, when known, for harnesses that compute cost from their config. */
  readonly prices: { readonly input: number; readonly cacheRead: number; readonly cacheWrite: number; readonly output: number } | null;
}

/** A harness's own web tools (`Harness.webTools`). */
export type WebTools = AgentWebTools;

/** How to start the CLI for one session. */
export interface HarnessSetup {
  /** Files to create under HOME before the CLI starts (path relative to HOME → content). */
  readonly homeFiles: Readonly<Record<string, string>>;
  /**
   * The command: argv[0] is an absolute path under `installDir` (or a program on PATH). The
   * prompt is in `stdin`, never here (pi gets the whitespace its stdin trim takes off as its message
   * argument). Further CLI options go before the first `--` when there is one, else at the end.
   */
  readonly argv: readonly string[];
  /** Text for the CLI's stdin: the prompt (every CLI reads it there). */
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
  /**
   * Effort levels this harness accepts for the model, lowest first; empty: no effort setting.
   * bakeoff's own table, for a CLI that does not list its levels itself; absent when `catalog`
   * reads them from the installed CLI.
   */
  efforts?(model: string): readonly string[];
  /** Where the `efforts` table comes from, as `bakeoff agents` and every run record say it. */
  readonly effortsSource?: string;
  /**
   * Reads the installed CLI's own model catalog (Codex: `codex debug models`), at the start of a
   * bake: the levels of every model and where they came from. Takes the place of `efforts`.
   */
  catalog?(input: CatalogInput): Promise<CliCatalog>;
  /**
   * The CLI's own web tools and how its setup turns them off on the closed web, so every
   * harness offers the model the same tool surface (a model is not scored on tool errors one
   * harness shows and another hides); listed on the agent's page. The metering proxy withholds
   * provider-run tools whatever the CLI sends (decision 013): this switch is for fairness.
   */
  readonly webTools: WebTools;
  /** The wire format this harness speaks for the model (pi/OpenCode: chosen by provider). */
  wireFormat(model: string): WireFormat;
  setup(input: SetupInput): HarnessSetup;
  /**
   * Its stream readers, loaded on first call: a dynamic `import()` of the folder's
   * `parse-stream.ts` (and transcript reader), so that commands which only list harnesses
   * (`bakeoff agents`) never load the readers' zod schemas (issue 36: start-up near bare node).
   */
  stream(): Promise<StreamReader>;
}

/** How a harness reads what its CLI printed on stdout (the machine-readable stream). */
export interface StreamReader {
  /** Reads the CLI's stdout. Never throws. */
  parse(stdout: string, exitCode: number | null): HarnessReport;
  /**
   * The same stream as a transcript a person reads (what the agent said, each tool call and its
   * result, the final answer as `parse` reads it, errors), for the private site. Never throws.
   */
  transcript(stdout: string): TranscriptEntry[];
}

/** What reading a CLI's catalog needs (all on the host, never in a sandbox). */
export interface CatalogInput {
  /** The CLI's executable (absolute). */
  readonly bin: string;
  /** bakeoff's environment (the user's `CODEX_HOME`, `HOME` …). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Keeps what `read` returns between invocations while this install is unchanged (the probe
   * cache, under the install's stamp); absent: read every time. Only for what depends on the
   * installed CLI alone (a catalog compiled into it), never on the user's files or the network.
   */
  readonly keep?: (what: string, read: () => Promise<string>) => Promise<string>;
}

/** A model catalog as the installed CLI printed it. */
export interface CliCatalog {
  /** How it was read, e.g. `codex debug models --bundled (the catalog shipped with codex-cli 0.171.0)`. */
  readonly source: string;
  /** The catalog's text as printed (its sha256 is the digest every run records). */
  readonly text: string;
  /** The model's effort levels as the catalog lists them; null: the catalog has no such model. */
  levels(model: string): readonly string[] | null;
}
