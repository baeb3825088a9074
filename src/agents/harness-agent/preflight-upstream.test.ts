import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfraError } from '../../errors.js';
import { upstreamFor } from '../../meter/index.js';
import { preflightUpstream } from './preflight-upstream.js';

describe('preflightUpstream', () => {
  let server: Server;
  let seen: { path: string; key: string | undefined }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
      res.writeHead(404).end('no models here');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('passes an upstream that answers anything (a 404 here), asked without any key', async () => {
    seen = [];
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await preflightUpstream(upstreamFor(base, { BAKEOFF_UPSTREAM_API_KEY: 'k-1' }), ['anthropic-messages', 'openai-chat'], base);
    expect(seen).toEqual([{ path: '/v1/models', key: undefined }]);
  });

  it('stops at a host that does not resolve, naming it', async () => {
    const spec = 'http://does-not-exist.invalid';
    const started = performance.now();
    const error = await preflightUpstream(upstreamFor(spec, {}), ['openai-chat'], spec).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfraError);
    expect((error as Error).message).toMatch(/^--upstream http:\/\/does-not-exist\.invalid: the model API at does-not-exist\.invalid does not resolve \(ENOTFOUND\)/);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('stops at a host that refuses the connection, naming it', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const spec = `http://127.0.0.1:${port}`;
    await expect(preflightUpstream(upstreamFor(spec, {}), ['openai-chat'], spec)).rejects.toThrow(
      new RegExp(`the model API at 127\\.0\\.0\\.1 could not be reached at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`),
    );
  });
});
