import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError, UserError } from '../errors.js';
import { toInputIssues } from '../util/index.js';
import { FAULT_SCRIPTS } from './fault-reply.js';
import { GOLD_SCRIPTS } from './load-script.js';
import { requestLog } from './request-log.js';
import { DEFAULT_SESSION, startModelServer } from './start-model-server.js';
import type { GoldSession, ServedRequest } from './types.js';

/** Flags of `bakeoff model-server`. */
export interface ModelServerFlags {
  readonly script: string;
  readonly host: string;
  readonly port: number;
  /** JSONL file to append every request to, headers and body included. */
  readonly log?: string;
  /** JSON file with a gold session (`{workspace, edits: [{path, before, after}]}`) for every request. */
  readonly session?: string;
}

/** What the command writes to; the CLI's `CliIo` fits (the model server does not import the CLI). */
export interface ModelServerIo {
  readonly stdout: NodeJS.WritableStream;
  readonly cwd: string;
}

const GoldSessionFile = z.strictObject({
  workspace: z.string().min(1),
  edits: z.array(z.strictObject({ path: z.string().min(1), before: z.string().nullable(), after: z.string().nullable() })),
});

/**
 * `bakeoff model-server`: starts the scripted model server, prints its URL, then one line per
 * request until SIGINT or SIGTERM (or `options.signal`), and closes it. Exit 0.
 */
export async function modelServerCommand(flags: ModelServerFlags, io: ModelServerIo, options: { signal?: AbortSignal } = {}): Promise<number> {
  const builtin = (GOLD_SCRIPTS as readonly string[]).includes(flags.script) || (FAULT_SCRIPTS as readonly string[]).includes(flags.script);
  const script = builtin ? flags.script : path.resolve(io.cwd, flags.script);
  const session = flags.session === undefined ? null : await readSession(path.resolve(io.cwd, flags.session));
  const log = flags.log === undefined ? null : requestLog(path.resolve(io.cwd, flags.log));
  const server = await startModelServer({
    listen: { host: flags.host, port: flags.port },
    script,
    onRequestServed: (served, detail) => {
      io.stdout.write(describeRequest(served) + '\n');
      log?.onRequestServed(served, detail);
    },
  }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') throw new UserError(`cannot listen on ${flags.host}:${flags.port} (${code}): choose another --port`, { cause: error });
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL' || code === 'EAI_NONAME') {
      throw new UserError(`--host ${flags.host}: not an address of this machine (${code}); expected e.g. 127.0.0.1, 0.0.0.0 or ::1`, { cause: error });
    }
    throw error;
  });
  if (session !== null) server.registerSession(DEFAULT_SESSION, session);
  io.stdout.write(`model server (script ${flags.script}) listening on ${server.url}\n`);
  await untilStopped(options.signal);
  await server.close();
  await log?.flushed();
  return 0;
}

/** `#3 POST /v1/messages?beta=true anthropic-messages claude-sonnet-4-5 -> 200 tool:Write` */
export function describeRequest(served: ServedRequest): string {
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

function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    if (signal?.aborted) return stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop);
  });
}
