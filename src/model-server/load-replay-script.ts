import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError, UserError } from '../errors.js';
import { toInputIssues } from '../util/index.js';
import { errorBody } from './fault-reply.js';
import { shortAnswer } from './gold-reply.js';
import type { ParsedRequest, ScriptReply } from './types.js';

/** Seconds the model waits before it answers (a slow model, for throughput benches and timeouts); at most an hour. */
const DelaySec = z.number().min(0).max(3600);
const ReplayReply = z.union([
  z.strictObject({ text: z.string(), delaySec: DelaySec.optional() }),
  z.strictObject({ tool: z.strictObject({ name: z.string().min(1), args: z.union([z.record(z.string(), z.unknown()), z.string()]) }), delaySec: DelaySec.optional() }),
  z.strictObject({ status: z.number().int().min(400).max(599), body: z.unknown().optional(), headers: z.record(z.string(), z.string()).optional(), delaySec: DelaySec.optional() }),
]);
const ReplayFile = z.strictObject({ delaySec: DelaySec.optional(), replies: z.array(ReplayReply).min(1) });
type ReplayReply = z.infer<typeof ReplayReply>;

/** Answers generation requests from a replay file, in order. */
export interface ReplayScript {
  /** The next reply for this session token (or the global sequence when null). */
  reply(request: ParsedRequest, token: string | null): ScriptReply;
}

/** What a session gets once its replies are used up. */
export const REPLAY_EXHAUSTED = 'Done: the replay has no more replies.';

/**
 * Loads a replay file: `{"delaySec"?, "replies": [{"text"} | {"tool": {"name", "args"}} | {"status", "body"?, "headers"?}, …]}`.
 * `delaySec` (the file's, or a reply's own, which wins) is how long the model waits before each
 * answer, the tool-less ones included: nothing is sent until then. Replies are given in order, counted per session token (requests without one share a
 * sequence). Requests that offer no tools (titles, routing) get the gold script's short answer and do not use
 * up a reply. A tool whose `args` is a string is sent as a custom tool's input when the
 * request offers it as a custom tool, else as `{input: args}`.
 */
export async function loadReplayScript(file: string): Promise<ReplayScript> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UserError(`${file}: cannot read the replay script (expected 'gold', 'web', 'provider-tool', '500', '429', 'hang', 'malformed', 'truncated', 'disconnect' or a replay file)`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError([{ file, field: '', expected: 'JSON', received: (error as Error).message }]);
  }
  const parsed = ReplayFile.safeParse(json, { reportInput: true });
  if (!parsed.success) {
    // a reply of the wrong shape is named with the shape a reply has; everything else as the schema says
    throw new InputError(
      toInputIssues(file, parsed.error).map((issue, i) =>
        parsed.error.issues[i]?.path.length === 2
          ? { ...issue, expected: REPLY_SHAPE, received: JSON.stringify(valueAt(json, parsed.error.issues[i]!.path))?.slice(0, 80) ?? 'nothing' }
          : issue),
    );
  }
  const { replies, delaySec } = parsed.data;
  const used = new Map<string, number>();
  const after = (seconds: number | undefined, reply: Exclude<ScriptReply, { kind: 'delayed' }>): ScriptReply =>
    seconds ? { kind: 'delayed', delayMs: seconds * 1000, reply } : reply;
  return {
    reply(request, token) {
      if (request.tools.length === 0) return after(delaySec, shortAnswer(request));
      const key = token ?? '';
      const n = used.get(key) ?? 0;
      used.set(key, n + 1);
      const next = replies[n];
      return next === undefined ? after(delaySec, { kind: 'text', text: REPLAY_EXHAUSTED }) : after(next.delaySec ?? delaySec, toScriptReply(next, request));
    },
  };
}

const REPLY_SHAPE = '{"text"}, {"tool": {"name", "args"}} or {"status", "body"?, "headers"?}, each with an optional "delaySec"';

function valueAt(json: unknown, at: readonly PropertyKey[]): unknown {
  return at.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | null)?.[key], json);
}

function toScriptReply(reply: ReplayReply, request: ParsedRequest): Exclude<ScriptReply, { kind: 'delayed' }> {
  if ('text' in reply) return { kind: 'text', text: reply.text };
  if ('tool' in reply) {
    const { name, args } = reply.tool;
    const custom = request.tools.some((t) => t.name === name && t.kind === 'custom');
    return { kind: 'tool', text: null, name, input: typeof args === 'string' && !custom ? { input: args } : args };
  }
  const body = reply.body ?? errorBody(request.format, reply.status, `replayed ${reply.status}`);
  return { kind: 'error', status: reply.status, body, ...(reply.headers && { headers: reply.headers }) };
}
