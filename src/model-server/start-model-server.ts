import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody, malformed, truncated } from './fault-reply.js';
import { goldReply, shortAnswer } from './gold-reply.js';
import { loadScript, type Script } from './load-script.js';
import { parseRequest } from './parse-request.js';
import { withProviderToolUse } from './provider-tool-reply.js';
import { BadBodyError, readJsonBody } from './read-json-body.js';
import { jsonReply, type RenderedReply } from './rendered-reply.js';
import { renderReply } from './render-reply.js';
import { routeOf } from './route-of.js';
import { countTokensAnswer, listModelsAnswer } from './static-answers.js';
import {
  type GoldSession,
  type ModelServer,
  type ModelServerOptions,
  type ParsedRequest,
  SESSION_HEADER,
  type ServedRequest,
  type WireFormat,
} from './types.js';

/** The session token that stands for every request no other registered token matches. */
export const DEFAULT_SESSION = '*';

/** How one request was answered; `rendered: null`: never (the `hang` script). */
interface Answer {
  readonly rendered: RenderedReply | null;
  readonly reply: string;
  readonly format: WireFormat | null;
  readonly model: string | null;
  readonly body: unknown;
}

interface AnswerContext {
  readonly script: Script;
  readonly token: string | null;
  readonly sessionOf: (request: ParsedRequest) => GoldSession | null;
}

/**
 * Starts the scripted model server: plain node:http speaking Anthropic Messages, OpenAI
 * Responses and Chat Completions, and Gemini, streamed or not, answering from a script
 * (`gold`, a fault, or a replay file). Resolves once it listens. The gold session of a request
 * is the one registered for its `x-bakeoff-session` token, else `options.sessions`' pick, else
 * the one registered as `*`.
 */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const script = await loadScript(options.script);
  const sessions = new Map<string, GoldSession>();
  const served: ServedRequest[] = [];
  // A long keep-alive: the metering proxy reuses its sockets, and a socket this server closes
  // after Node's default 5 s idle races the proxy's next request on it (ECONNRESET, seen on a
  // loaded machine as an `unreachable` request the proxy never retries).
  const server = createServer({ keepAliveTimeout: 600_000 }, (req, res) => {
    const token = headerOf(req, SESSION_HEADER);
    const sessionOf = (request: ParsedRequest): GoldSession | null =>
      (token === null ? undefined : sessions.get(token)) ?? options.sessions?.(token, request) ?? sessions.get(DEFAULT_SESSION) ?? null;
    void answer(req, { script, token, sessionOf })
      .catch((error: unknown) => badRequest(error))
      .then((result) => {
        const entry: ServedRequest = {
          seq: served.length + 1,
          format: result.format,
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          model: result.model,
          reply: result.reply,
          status: result.rendered?.status ?? 0,
          session: token,
        };
        served.push(entry);
        if (result.rendered !== null) send(res, result.rendered);
        options.onRequestServed?.(entry, { headers: req.headers, body: result.body });
      });
  });
  const listen = options.listen;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('socket' in listen) server.listen(listen.socket, resolve);
    else server.listen(listen.port ?? 0, listen.host ?? '127.0.0.1', resolve);
  });
  return {
    url: 'socket' in listen ? listen.socket : httpUrl(server.address() as AddressInfo),
    registerSession: (token, session) => void sessions.set(token, session),
    forgetSession: (token) => void sessions.delete(token),
    requests: () => [...served],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // hanging requests included
      }),
  };
}

async function answer(req: IncomingMessage, context: AnswerContext): Promise<Answer> {
  const url = req.url ?? '/';
  const route = routeOf(req.method ?? 'GET', url);
  const body = req.method === 'POST' ? await readJsonBody(req) : null;
  const fixed = (rendered: RenderedReply, reply: string): Answer => ({ rendered, reply, format: null, model: null, body });
  switch (route.kind) {
    case 'hello':
      return fixed({ status: 200, headers: {}, chunks: [] }, 'hello');
    case 'list-models':
      return fixed(jsonReply(listModelsAnswer(route.gemini)), 'list-models');
    case 'count-tokens':
      return fixed(jsonReply(countTokensAnswer(route.format)), 'count-tokens');
    case 'not-found':
      return fixed(jsonReply({ error: { message: `no route for ${req.method} ${url}` } }, 404), 'not-found');
    case 'generate':
      return { ...(await generate(parseRequest(route.format, url, body), context)), body };
  }
}

async function generate(request: ParsedRequest, context: AnswerContext): Promise<Omit<Answer, 'body'>> {
  const session = context.sessionOf(request);
  let reply = context.script.reply(request, { session, token: context.token });
  if (reply.kind === 'delayed') {
    // a slow model: no header, no byte until the wait is over (the proxy's idle clock runs meanwhile)
    const { delayMs } = reply;
    await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
    reply = reply.reply;
  }
  const base = { format: request.format, model: request.model };
  switch (reply.kind) {
    case 'hang':
      return { ...base, rendered: null, reply: 'hang' };
    case 'malformed':
      return { ...base, rendered: malformed(renderReply(shortAnswer(request), request)), reply: 'malformed' };
    case 'truncated': {
      const rendered = truncated(renderReply(goldReply(request, session), request), request, reply.end);
      return { ...base, rendered, reply: reply.end === 'clean' ? 'truncated' : 'disconnect' };
    }
    case 'provider-tool':
      return { ...base, rendered: withProviderToolUse(renderReply(reply.reply, request), request), reply: `provider-tool:${reply.reply.kind === 'tool' ? reply.reply.name : 'text'}` };
    case 'raw':
      return { ...base, rendered: { status: reply.status, headers: { 'content-type': reply.contentType }, chunks: [reply.body] }, reply: 'recorded' };
    case 'error': {
      const rendered = jsonReply(reply.body ?? errorBody(request.format, reply.status, 'scripted error'), reply.status);
      return { ...base, rendered: { ...rendered, headers: { ...rendered.headers, ...reply.headers } }, reply: `error:${reply.status}` };
    }
    default:
      return { ...base, rendered: renderReply(reply, request), reply: reply.kind === 'tool' ? `tool:${reply.name}` : 'text' };
  }
}

/** A body the server cannot read is the client's fault (400); anything else is the server's (500). */
function badRequest(error: unknown): Answer {
  const status = error instanceof BadBodyError ? 400 : 500;
  const message = error instanceof Error ? error.message : String(error);
  return { rendered: jsonReply({ error: { message } }, status), reply: status === 400 ? 'bad-request' : 'server-error', format: null, model: null, body: null };
}

function send(res: ServerResponse, rendered: RenderedReply): void {
  res.writeHead(rendered.status, rendered.headers);
  if (!rendered.disconnect) {
    for (const chunk of rendered.chunks) res.write(chunk);
    res.end();
    return;
  }
  // a broken stream: what was written reaches the client, then the connection drops without the final chunk
  const chunks = rendered.chunks.filter((c) => c !== '');
  chunks.forEach((chunk, i) => res.write(chunk, i === chunks.length - 1 ? () => res.destroy() : undefined));
  if (chunks.length === 0) res.destroy();
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function httpUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
