import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeCredential, type StoredCredential } from './credential-store.js';
import { subscriptionUpstream } from './subscription-upstream.js';

const jwt = (claims: object): string => ['{"alg":"none"}', JSON.stringify(claims)].map((p) => Buffer.from(p).toString('base64url')).join('.') + '.s';

let dir: string;
let server: Server;
let refreshes: string[];
let url: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-sub-'));
  refreshes = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const asked = JSON.parse(body) as { refresh_token: string };
      refreshes.push(asked.refresh_token);
      const n = refreshes.length + 1;
      setTimeout(() => res.end(JSON.stringify({ access_token: jwt({ exp: Math.floor(Date.now() / 1000) + 3600, n }), refresh_token: `rt-${n}` })), 200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
});

afterEach(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

const expiring: StoredCredential = {
  harness: 'codex', accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 30 }), refreshToken: 'rt-1', idToken: null,
  accountId: 'acct', plan: 'plus', expiresAt: Date.now() + 30_000, lastRefresh: new Date().toISOString(), importedFrom: 'test',
};
const responses = { method: 'POST', path: '/backend-api/codex/responses' };

describe('a subscription upstream', () => {
  it('refreshes an expiring login once for many requests at once, and across two bakeoffs sharing the store, writing the rotated tokens 0600', async () => {
    await writeCredential(dir, expiring);
    const env = { BAKEOFF_CODEX_REFRESH_URL: url };
    const a = await subscriptionUpstream('codex', { dir, env });
    const b = await subscriptionUpstream('codex', { dir, env }); // another process's view: it read the same file
    await Promise.all([a.prepare!(responses), a.prepare!(responses), a.prepare!(responses), b.prepare!(responses)]);
    expect(refreshes).toEqual(['rt-1']);
    expect(a.refreshes() + b.refreshes()).toBe(1);
    const stored = JSON.parse(await readFile(path.join(dir, 'codex.json'), 'utf8')) as StoredCredential;
    expect(stored.refreshToken).toBe('rt-2');
    expect((await stat(path.join(dir, 'codex.json'))).mode & 0o777).toBe(0o600);
    expect(a.authHeaders('openai-responses', responses)).toEqual({ authorization: `Bearer ${stored.accessToken}`, 'chatgpt-account-id': 'acct' });
    expect(b.authHeaders('openai-responses', responses)).toEqual(a.authHeaders('openai-responses', responses));
  });

  it('adds the real token to the plan\'s generation endpoint only, and needs no refresh for a fresh login', async () => {
    await writeCredential(dir, { ...expiring, expiresAt: Date.now() + 3600_000 });
    const up = await subscriptionUpstream('codex', { dir, env: { BAKEOFF_CODEX_REFRESH_URL: url } });
    await up.prepare!(responses);
    expect(refreshes).toEqual([]);
    expect(up.authHeaders(null, { method: 'GET', path: '/backend-api/codex/models?client_version=1' })).toEqual({});
    expect(up.authHeaders(null, { method: 'POST', path: '/backend-api/wham/usage' })).toEqual({});
    expect(up.baseUrl(null)).toBe('https://chatgpt.com/backend-api/codex');
  });

  it('without a stored login: a UserError naming the import command', async () => {
    await expect(subscriptionUpstream('claude-code', { dir, env: {} })).rejects.toThrow('run `bakeoff auth import claude-code` first');
  });
});
