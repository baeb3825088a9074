import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError, UserError } from '../errors.js';
import { FAULT_SCRIPTS } from '../model-server/fault-reply.js';
import { GOLD_SCRIPTS } from '../model-server/load-script.js';
import { requestLog } from '../model-server/request-log.js';
import { DEFAULT_SESSION, startModelServer } from '../model-server/start-model-server.js';
import type { GoldSession, ServedRequest } from '../model-server/types.js';
import { toInputIssues } from '../util/index.js';
import { cwdOf, type Place } from './paths.js';

/** What to serve: a script (built-in name or replay file), where, and what to keep. */
export interface ServeModelRequest extends Place {
  readonly script: string;
  readonly host: string;
  readonly port: number;
  /** JSONL file to append every request to, headers and body included. */
  readonly log?: string;
  /** JSON file with a gold session (`{workspace, edits: [{path, before, after}]}`) for every request. */
  readonly session?: string;
  /** Hears one line per request served (`#3 POST /v1/messages … -> 200 tool:Write`). */
  readonly onRequest?: (line: string) => void;
}

/** A running scripted model server. */
export interface ServedModel {
  readonly url: string;
  /** Stops it and flushes the request log. */
  close(): Promise<void>;
}

const GoldSessionFile = z.strictObject({
  workspace: z.string().min(1),
  edits: z.array(z.strictObject({ path: z.string().min(1), before: z.string().nullable(), after: z.string().nullable() })),
});

/**
 * Starts bakeoff's scripted model server (Anthropic, OpenAI Responses/Chat, Gemini wire formats)
 * for dry runs without tokens. A port in use or a host that is not this machine's is a
 * UserError saying which flag to change.
 */
export async function serveModel(request: ServeModelRequest): Promise<ServedModel> {
  const cwd = cwdOf(request);
  const builtin = (GOLD_SCRIPTS as readonly string[]).includes(request.script) || (FAULT_SCRIPTS as readonly string[]).includes(request.script);
  const script = builtin ? request.script : path.resolve(cwd, request.script);
  const session = request.session === undefined ? null : await readSession(path.resolve(cwd, request.session));
  const log = request.log === undefined ? null : requestLog(path.resolve(cwd, request.log));
  const server = await startModelServer({
    listen: { host: request.host, port: request.port },
    script,
    onRequestServed: (served, detail) => {
      request.onRequest?.(describeRequest(served));
      log?.onRequestServed(served, detail);
    },
  }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') throw new UserError(`cannot listen on ${request.host}:${request.port} (${code}): choose another --port`, { cause: error });
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL' || code === 'EAI_NONAME') {
      throw new UserError(`--host ${request.host}: not an address of this machine (${code}); expected e.g. 127.0.0.1, 0.0.0.0 or ::1`, { cause: error });
    }
    throw error;
  });
  if (session !== null) server.registerSession(DEFAULT_SESSION, session);
  return {
    url: server.url,
    close: async () => {
      await server.close();
      await log?.flushed();
    },
  };
}

/** `#3 POST /v1/messages?beta=true anthropic-messages claude-sonnet-4-5 -> 200 tool:Write` */
function describeRequest(served: ServedRequest): string {
  const what = [served.format, served.model].filter((s) => s !== null).join(' ');
  return `#${served.seq} ${served.method} ${served.path}${what ? ` ${what}` : ''} -> ${served.status || 'no answer'} ${served.reply}`;
}

async function readSession(file: string): Promise<GoldSession> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UserError(`${file}: cannot read the session file as JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = GoldSessionFile.safeParse(json, { reportInput: true });
  if (!parsed.success) {
    throw new InputError(toInputIssues(file, parsed.error));
  }
  return parsed.data;
}
