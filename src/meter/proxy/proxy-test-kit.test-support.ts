import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test kit for the metering proxy: a fake upstream whose handler each test sets, and a client
 * that talks to a proxy over its unix socket or TCP URL. Used by the proxy's tests only.
 */

/** One request as the fake upstream received it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export type FakeHandler = (req: SeenRequest, res: http.ServerResponse) => void | Promise<void>;

/** A local http server standing in for a model API. */
export interface FakeUpstream {
  readonly url: string;
  readonly seen: SeenRequest[];
  handle: FakeHandler;
  close(): Promise<void>;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const fake: FakeUpstream = {
    url: '',
    seen: [],
    handle: (_req, res) => void res.end('{}'),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      fake.seen.push(seen);
      void Promise.resolve(fake.handle(seen, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, { url: `http://127.0.0.1:${port}` });
}

/** A request to send through the proxy. */
export interface ClientRequestSpec {
  readonly method?: string;
  readonly path: string;
  readonly headers?: http.OutgoingHttpHeaders;
  readonly body?: string;
}

/** Sends a request to a proxy (`unix:<path>` or `http://host:port`) and resolves with the response head. */
export function openRequest(proxyUrl: string, spec: ClientRequestSpec): Promise<http.IncomingMessage> {
  const where = proxyUrl.startsWith('unix:') ? { socketPath: proxyUrl.slice('unix:'.length) } : { host: new URL(proxyUrl).hostname, port: Number(new URL(proxyUrl).port) };
  return new Promise((resolve, reject) => {
    const req = http.request({ ...where, method: spec.method ?? 'POST', path: spec.path, headers: spec.headers, agent: false }, resolve);
    req.on('error', reject);
    req.end(spec.body);
  });
}

/** The rest of a response body as text; rejects when the connection is cut before the end. */
export function readBody(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('close', () => {
      if (!res.complete) reject(new Error('connection cut before the end of the body'));
    });
  });
}

/** Splits an SSE body into its events, each with its trailing blank line, so that they re-join exactly. */
export function sseEvents(body: string): string[] {
  return body.split(/(?<=\n\n)/).filter((e) => e !== '');
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
