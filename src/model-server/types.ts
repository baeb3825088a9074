import type { RequestUsage, WireFormat } from '../meter/index.js';

/** One file of an order's reference change; null content: the file does not exist on that side. */
export interface FileEdit {
  /** Path relative to the workspace, `/`-separated. */
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** What the `gold` script needs to make one session's change through the calling harness's tools. */
export interface GoldSession {
  /** Absolute workspace path as the agent sees it (Claude Code's tools need absolute paths). */
  readonly workspace: string;
  readonly edits: readonly FileEdit[];
}

/**
 * Built-in scripts: `gold`; `web` (reaches for the web first: the harness's web tools and the
 * closed-web attack, then gold); `provider-tool` (gold, every answer as if the provider had run
 * a tool); or fault injection; any other value is a replay file path.
 */
export type ScriptName = 'gold' | 'web' | 'provider-tool' | '500' | '429' | 'hang' | 'malformed' | 'truncated' | 'disconnect' | string;

/** One request the server answered (for tests and `bakeoff model-server --log`). */
export interface ServedRequest {
  readonly seq: number;
  readonly format: WireFormat | null;
  readonly method: string;
  readonly path: string;
  readonly model: string | null;
  /** What the script answered: `tool:<name>`, `text`, or the fault. */
  readonly reply: string;
  /** The HTTP status answered; 0 when the request was never answered (`hang`). */
  readonly status: number;
  /** The `x-bakeoff-session` header, or null. */
  readonly session: string | null;
}

/** A tool the request offers the model, whatever the wire format. */
export interface OfferedTool {
  readonly name: string;
  /** `custom`: a Responses custom tool that takes free text (Codex's `apply_patch` with a grammar). */
  readonly kind: 'function' | 'custom';
  /** JSON schema of the arguments (function tools), or null. */
  readonly schema: JsonSchema | null;
}

/** The parts of a JSON schema the gold script reads to name its arguments. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
}

/** A generation request, read into what the scripts need, the same for every wire format. */
export interface ParsedRequest {
  readonly format: WireFormat;
  /** The model the request names (body `model`, or Gemini's URL), or null. */
  readonly model: string | null;
  /** SSE wanted: body `stream: true`, or Gemini `:streamGenerateContent`. */
  readonly streamed: boolean;
  /** Gemini `:streamGenerateContent` without `alt=sse`: the stream is one JSON array. */
  readonly jsonArrayStream: boolean;
  /** Chat Completions `stream_options.include_usage`: whether a final usage chunk is wanted. */
  readonly includeUsage: boolean;
  readonly tools: readonly OfferedTool[];
  /**
   * Structured output asked for (Gemini `responseMimeType: application/json`, OpenAI
   * `response_format` / `text.format`, Anthropic `output_format`): the schema, or null when
   * any JSON will do; undefined when plain text is wanted.
   */
  readonly jsonSchema?: JsonSchema | null;
  /** Names of the tool calls the assistant already made in the conversation, in order. */
  readonly toolCalls: readonly string[];
}

/** What a script answers to one generation request. */
export type ScriptReply =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'tool';
      /** Said before the call (omitted in Responses, where it would be a separate message item). */
      readonly text: string | null;
      readonly name: string;
      /** Arguments of a function tool, or the free-text input of a custom tool. */
      readonly input: Readonly<Record<string, unknown>> | string;
    }
  | { readonly kind: 'error'; readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'hang' }
  | { readonly kind: 'malformed' }
  /** The gold script's answer, cut before its wire format's final event (see `truncated` in fault-reply.ts). */
  | { readonly kind: 'truncated'; readonly end: 'clean' | 'disconnect' }
  /** A text or tool answer that also shows a provider-run tool (`provider-tool-reply.ts`). */
  | { readonly kind: 'provider-tool'; readonly reply: Extract<ScriptReply, { kind: 'text' | 'tool' }> }
  /** A recorded answer, given verbatim. */
  | { readonly kind: 'raw'; readonly status: number; readonly contentType: string; readonly body: string }
  /** Another reply, given after a wait (a replay file's `delaySec`): a slow model, nothing sent until then. */
  | { readonly kind: 'delayed'; readonly delayMs: number; readonly reply: Exclude<ScriptReply, { kind: 'delayed' }> };

/** A text or tool reply: the answers the wire renderers encode. */
export type ModelReply = Extract<ScriptReply, { kind: 'text' | 'tool' }>;

/** Picks the gold session of a request that no registered token matched. */
export type SessionResolver = (sessionHeader: string | null, request: ParsedRequest) => GoldSession | null;

/** Where the server listens: TCP (default 127.0.0.1, a free port) or a Unix socket. */
export type ListenOptions = { readonly host?: string; readonly port?: number } | { readonly socket: string };

/** Options of `startModelServer`. */
export interface ModelServerOptions {
  readonly listen: ListenOptions;
  readonly script: ScriptName;
  /** Resolves sessions for requests without a registered `x-bakeoff-session` token. */
  readonly sessions?: SessionResolver;
  /** Called after each request is answered, with the request's headers and parsed JSON body. */
  readonly onRequestServed?: (served: ServedRequest, detail: { headers: Readonly<Record<string, unknown>>; body: unknown }) => void;
}

/** A running scripted model server. */
export interface ModelServer {
  /** `http://127.0.0.1:PORT` (no trailing slash), or the Unix socket path. */
  readonly url: string;
  /** Binds a session token (the `x-bakeoff-session` header) to a gold session; `*` is the default for requests no token matches. */
  registerSession(token: string, session: GoldSession): void;
  /** Drops a session's binding (after its agent session ended). */
  forgetSession(token: string): void;
  /** Every request answered so far, in order. */
  requests(): ServedRequest[];
  /** Stops listening and drops open connections (hanging requests included). */
  close(): Promise<void>;
}

/** The header the metering proxy adds to tell the server which session a request belongs to. */
export const SESSION_HEADER = 'x-bakeoff-session';

export type { RequestUsage, WireFormat };
