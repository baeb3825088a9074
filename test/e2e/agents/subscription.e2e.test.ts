import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../src/model-server/index.js';
import { bakeoff, tempDir } from '../helpers.js';
import { expectNoLeak, leakCount, oneTaskSuite, requireHarnesses } from './agent-helpers.js';

/** Unsigned JWTs, as the ChatGPT login's tokens are read (claims only). */
const jwt = (claims: object, signature: string): string =>
  [{ alg: 'RS256', typ: 'JWT' }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + `.${signature}`;
const OPENAI = 'https://api.openai.com/auth';

// Real tokens, split so that no command line in a sandbox ever holds one whole.
const CANARY = 'canary-7d2e91';
const CODEX_ACCOUNT = 'acct-real-4411';
const CLAUDE_TOKEN = `sk-ant-oat01-real-${CANARY}`;
/** An API key in bakeoff's environment: a subscription run must never send or show it. */
const API_KEY = `sk-api-key-${CANARY}`;

/** The ChatGPT login as `codex login` leaves it: an access token about to expire (bakeoff must refresh it first). */
function codexLogin(accessSignature: string, expiresInSec: number): object {
  const exp = Math.floor(Date.now() / 1000) + expiresInSec;
  return {
    auth_mode: 'chatgpt',
    OPENAI_API_KEY: null,
    tokens: {
      id_token: jwt({ email: 'me@example.com', exp, [OPENAI]: { chatgpt_plan_type: 'pro', chatgpt_account_id: CODEX_ACCOUNT } }, `id-${CANARY}`),
      access_token: jwt({ exp, [OPENAI]: { chatgpt_account_id: CODEX_ACCOUNT } }, accessSignature),
      refresh_token: `rt-real-1-${CANARY}`,
      account_id: CODEX_ACCOUNT,
    },
    last_refresh: new Date().toISOString(),
  };
}

/** What Claude Code's Bash tool runs: search the sandbox for any real token or the API key, write the counts. */
const SEARCH = [
  `P='${CANARY.slice(0, 6)}''${CANARY.slice(6)}'`,
  '{',
  '  echo "env $(env | grep -c -- "$P")"',
  '  echo "dummy-env $(env | grep -c -- bakeoff-dummy)"',
  `  echo "proc $(for p in /proc/[0-9]*; do cat $p/environ $p/cmdline 2>/dev/null | tr '\\0' '\\n'; done | grep -c -- '${CANARY.slice(0, -1)}[${CANARY.slice(-1)}]')"`,
  `  echo "dummy-proc $(for p in /proc/[0-9]*; do cat $p/environ 2>/dev/null | tr '\\0' '\\n'; done | grep -c -- bakeoff-dummy)"`,
  '  echo "processes $(ls -d /proc/[0-9]* | wc -l)"',
  '  echo "files $(grep -rIl -s --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr --exclude-dir=harnesses -- "$P" / 2>/dev/null | wc -l)"',
  '  echo "dummy-files $(grep -rIl -s --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr --exclude-dir=harnesses -- bakeoff-dummy / 2>/dev/null | wc -l)"',
  '  echo "searched $(find / \\( -path /proc -o -path /sys -o -path /usr -o -name harnesses \\) -prune -o -type f -print 2>/dev/null | wc -l)"',
  '} > leak-report.txt',
].join('\n');

interface Seen { readonly path: string; readonly headers: IncomingHttpHeaders }

/**
 * A local stand-in for both subscription backends (no internet here), speaking their wire
 * protocols and checking their headers: the ChatGPT Codex backend (`POST
 * /backend-api/codex/responses`, Bearer access token + `chatgpt-account-id`, quota headers on
 * each answer), Anthropic's Messages API on a Claude plan (`POST /v1/messages`, OAuth Bearer +
 * `anthropic-beta: oauth-2025-04-20`), and the OAuth token endpoint (refresh tokens single-use,
 * rotated on every refresh). Answers come from bakeoff's scripted model behind it.
 */
class StandIn {
  readonly seen: Seen[] = [];
  refreshes = 0;
  codexAccess = '';
  codexRefresh = `rt-real-1-${CANARY}`;
  usageLimit = false;
  model!: ModelServer;
  server!: Server;

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(script: string): Promise<void> {
    this.model = await startModelServer({ listen: { host: '127.0.0.1', port: 0 }, script });
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const p = (req.url ?? '/').split('?', 1)[0]!;
        this.seen.push({ path: req.url ?? '/', headers: req.headers });
        const reply = (status: number, data: object, headers: Record<string, string> = {}): void => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(data));
        };
        if (p === '/oauth/token') {
          const asked = JSON.parse(body.toString('utf8')) as { refresh_token?: string; grant_type?: string };
          if (asked.grant_type !== 'refresh_token' || asked.refresh_token !== this.codexRefresh) return reply(401, { error: 'refresh_token_reused' });
          this.refreshes++;
          this.codexRefresh = `rt-real-${this.refreshes + 1}-${CANARY}`;
          this.codexAccess = jwt({ exp: Math.floor(Date.now() / 1000) + 3600, [OPENAI]: { chatgpt_account_id: CODEX_ACCOUNT } }, `access-${this.refreshes + 1}-${CANARY}`);
          // slow on purpose: every session's first request waits for this one refresh
          setTimeout(() => reply(200, { access_token: this.codexAccess, refresh_token: this.codexRefresh }), 1500);
          return;
        }
        if (req.method === 'POST' && p === '/backend-api/codex/responses') {
          if (req.headers.authorization !== `Bearer ${this.codexAccess}` || req.headers['chatgpt-account-id'] !== CODEX_ACCOUNT) return reply(401, { error: { message: 'invalid token' } });
          if (this.usageLimit) {
            return reply(429, { error: { type: 'usage_limit_reached', message: "You've hit your usage limit. Upgrade to Pro or try again later.", resets_in_seconds: 3600 } }, { 'x-codex-primary-used-percent': '100', 'x-codex-rate-limit-reached-type': 'primary' });
          }
          return this.forward(req.method, req.url ?? '/', req.headers, body, res, { 'x-codex-primary-used-percent': '12', 'x-codex-primary-window-minutes': '300' });
        }
        if (req.method === 'POST' && p === '/v1/messages') {
          if (req.headers.authorization !== `Bearer ${CLAUDE_TOKEN}` || !String(req.headers['anthropic-beta']).includes('oauth-2025-04-20') || req.headers['x-api-key'] !== undefined) {
            return reply(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
          }
          if (this.usageLimit) {
            return reply(429, { type: 'error', error: { type: 'rate_limit_error', message: "You've reached your usage limit for this period." } }, {
              'anthropic-ratelimit-unified-status': 'rejected',
              'anthropic-ratelimit-unified-5h-utilization': '1.0',
              'anthropic-ratelimit-unified-reset': String(Math.floor(Date.now() / 1000) + 3600),
              'anthropic-ratelimit-unified-representative-claim': 'five_hour',
              'x-should-retry': 'false',
            });
          }
          return this.forward(req.method, req.url ?? '/', req.headers, body, res, { 'anthropic-ratelimit-unified-5h-utilization': '0.2', 'anthropic-ratelimit-unified-status': 'allowed' });
        }
        // model listings and the like: the scripted model answers, no credential checked (none is sent)
        return this.forward(req.method ?? 'GET', req.url ?? '/', req.headers, body, res, {});
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  private forward(method: string, url: string, headers: IncomingHttpHeaders, body: Buffer, res: import('node:http').ServerResponse, extra: Record<string, string>): void {
    const target = new URL(url, this.model.url);
    const up = request(target, { method, headers: { ...headers, host: target.host } }, (r) => {
      res.writeHead(r.statusCode ?? 502, { ...r.headers, ...extra });
      r.pipe(res);
    });
    up.end(body);
  }

  async stop(): Promise<void> {
    this.server?.close();
    await this.model?.close();
  }
}

const runsOf = (out: string) => {
  const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  try {
    return {
      runs: db.prepare('SELECT id, agent_json, outcome, reason, detail FROM runs').all() as { id: string; agent_json: string; outcome: string; reason: string | null; detail: string | null }[],
      requests: db.prepare('SELECT run_id, path, status, failure, quota_json FROM requests ORDER BY run_id, seq').all() as { run_id: string; path: string; status: number; failure: string | null; quota_json: string | null }[],
    };
  } finally {
    db.close();
  }
};

/*
 * Subscription runs, with the real Codex and Claude Code CLIs in the sandbox: bakeoff keeps the
 * real logins on the host, each sandbox gets dummies of the right shape, and the metering proxy
 * swaps in the real token for the subscription's own endpoint only.
 */
describe('subscription runs: Codex on a ChatGPT plan, Claude Code on a Claude plan', () => {
  const codexStandIn = new StandIn();
  const codexSearchStandIn = new StandIn();
  const claudeStandIn = new StandIn();
  let dir = '';
  let env: Record<string, string> = {};
  let suite = '';

  beforeAll(async () => {
    await requireHarnesses();
    dir = await tempDir();
    const home = path.join(dir, 'home');
    await mkdir(home);
    await writeFile(path.join(dir, 'codex-auth.json'), JSON.stringify(codexLogin(`access-1-${CANARY}`, 60)));
    await writeFile(path.join(dir, 'claude-credentials.json'), JSON.stringify({ claudeAiOauth: { accessToken: CLAUDE_TOKEN, refreshToken: `sk-ant-ort01-${CANARY}`, expiresAt: Date.now() + 30 * 24 * 3600_000, subscriptionType: 'max' } }));
    await writeFile(path.join(dir, 'done.json'), JSON.stringify({ replies: [{ text: 'Done.' }] }));
    await writeFile(path.join(dir, 'search.json'), JSON.stringify({ replies: [{ tool: { name: 'Bash', args: { command: SEARCH, description: 'look for tokens' } } }, { text: 'Searched.' }] }));
    await codexStandIn.start(path.join(dir, 'done.json'));
    await claudeStandIn.start(path.join(dir, 'search.json'));
    await writeFile(path.join(dir, 'search-codex.json'), JSON.stringify({ replies: [{ tool: { name: 'exec_command', args: { cmd: SEARCH } } }, { text: 'Searched.' }] }));
    await codexSearchStandIn.start(path.join(dir, 'search-codex.json'));
    env = {
      HOME: home,
      BAKEOFF_AUTH_DIR: path.join(dir, 'bakeoff-auth'),
      BAKEOFF_CODEX_REFRESH_URL: `${codexStandIn.url}/oauth/token`,
      OPENAI_API_KEY: API_KEY,
      ANTHROPIC_API_KEY: API_KEY,
      BAKEOFF_UPSTREAM_API_KEY: API_KEY,
    };
    suite = await oneTaskSuite(120);
  }, 300_000);

  afterAll(async () => {
    await codexStandIn.stop();
    await claudeStandIn.stop();
    await codexSearchStandIn.stop();
  });

  it('`bakeoff auth import` copies each login into bakeoff\'s own store, 0600 in a 0700 folder', async () => {
    for (const [harness, file] of [['codex', 'codex-auth.json'], ['claude-code', 'claude-credentials.json']] as const) {
      const r = await bakeoff(['auth', 'import', harness, '--from', path.join(dir, file), '--json'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      const stored = path.join(env.BAKEOFF_AUTH_DIR!, `${harness}.json`);
      expect(JSON.parse(r.stdout)).toMatchObject({ harness, file: stored, plan: harness === 'codex' ? 'pro' : 'max', refreshable: true });
      expect((await stat(stored)).mode & 0o777).toBe(0o600);
    }
    expect((await stat(env.BAKEOFF_AUTH_DIR!)).mode & 0o777).toBe(0o700);
    const status = await bakeoff(['auth', 'status'], { env });
    expect(status.stdout).toMatch(/^codex: plan pro, expires /m);
    expect(status.stdout).not.toContain(CANARY);
  });

  it('refuses a subscription run without a stored login, naming the command that makes one (exit 2)', async () => {
    const r = await bakeoff(['run', suite, '--agent', 'codex:gpt-5.5@lowest', '--auth', 'subscription', '--upstream', codexStandIn.url, '--out', path.join(dir, 'none')], { env: { ...env, BAKEOFF_AUTH_DIR: path.join(dir, 'empty-auth') } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('run `bakeoff auth import codex` first (a subscription run never falls back to an API key)');
  });

  describe('Codex: 4 sessions at once', () => {
    const out = { dir: '' };
    beforeAll(async () => {
      out.dir = path.join(dir, 'codex-out');
      const r = await bakeoff(['run', suite, '--agent', 'codex:gpt-5.5@lowest', '--auth', 'subscription', '--upstream', codexStandIn.url, '--runs', '4', '--concurrency', '4', '--out', out.dir, '--json'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
    }, 600_000);

    it('refreshed the expiring login once, on the host, for all 4 sessions; the rotated refresh token is stored', async () => {
      expect(codexStandIn.refreshes).toBe(1);
      // the 4 sessions ran at once: one moment falls inside every one of them
      const db = new Database(path.join(out.dir, 'bakeoff.db'), { readonly: true });
      const spans = (db.prepare('SELECT started_at AS at, agent_sec AS sec FROM runs').all() as { at: string; sec: number }[]).map((r) => [Date.parse(r.at), Date.parse(r.at) + r.sec * 1000]);
      db.close();
      expect(spans).toHaveLength(4);
      expect(Math.max(...spans.map(([from]) => from!)), JSON.stringify(spans)).toBeLessThan(Math.min(...spans.map(([, to]) => to!)));
      const stored = JSON.parse(await readFile(path.join(env.BAKEOFF_AUTH_DIR!, 'codex.json'), 'utf8')) as { accessToken: string; refreshToken: string };
      expect(stored).toMatchObject({ accessToken: codexStandIn.codexAccess, refreshToken: codexStandIn.codexRefresh });
      expect((await stat(path.join(env.BAKEOFF_AUTH_DIR!, 'codex.json'))).mode & 0o777).toBe(0o600);
    });

    it('the real token and account reached the stand-in\'s responses endpoint; the dummy and the API key never did', () => {
      const responses = codexStandIn.seen.filter((s) => s.path.startsWith('/backend-api/codex/responses'));
      expect(responses.length).toBeGreaterThanOrEqual(4);
      for (const s of responses) {
        expect(s.headers.authorization).toBe(`Bearer ${codexStandIn.codexAccess}`);
        expect(s.headers['chatgpt-account-id']).toBe(CODEX_ACCOUNT);
      }
      for (const s of codexStandIn.seen) {
        const text = JSON.stringify(s.headers);
        expect(text).not.toContain('bakeoff-dummy');
        expect(text).not.toContain(API_KEY);
        // other endpoints get no credential at all
        if (!s.path.startsWith('/backend-api/codex/responses') && s.path !== '/oauth/token') expect(s.headers.authorization).toBeUndefined();
      }
    });

    it('records the runs as subscription runs with the quota headers per request, and prices them at list price, billed: subscription', async () => {
      const { runs, requests } = runsOf(out.dir);
      expect(runs).toHaveLength(4);
      for (const run of runs) {
        expect(JSON.parse(run.agent_json)).toMatchObject({ id: 'codex:gpt-5.5@low+subscription', auth: 'subscription', plan: 'pro' });
        expect(run.outcome).not.toBe('void');
      }
      const answered = requests.filter((q) => q.path.startsWith('/backend-api/codex/responses'));
      expect(answered.length).toBeGreaterThanOrEqual(4);
      for (const q of answered) expect(JSON.parse(q.quota_json!)).toEqual({ 'x-codex-primary-used-percent': '12', 'x-codex-primary-window-minutes': '300' });
      const report = await bakeoff(['report', out.dir, '--format', 'json']);
      const json = JSON.parse(report.stdout) as { agents: { auth: string; billed: string }[]; runs: { costUsd: number | null }[] };
      expect(json.agents[0]).toMatchObject({ auth: 'subscription', billed: 'subscription' });
      for (const r of json.runs) expect(r.costUsd).toBeGreaterThan(0);
      const table = (await bakeoff(['report', out.dir])).stdout;
      expect(table).toMatch(/list-price equivalent of the metered\s+tokens; billed: subscription/);
      // the quota the plan's own headers reported, per window
      expect((json as unknown as { quota: unknown }).quota).toEqual([
        { agent: 'codex:gpt-5.5@low+subscription', window: 'primary', minutes: 300, firstPercent: 12, lastPercent: 12, maxPercent: 12, answers: answered.length },
      ]);
      expect(table.replace(/\s+/g, ' ')).toContain("Subscription quota of codex:gpt-5.5@low+subscription, from the plan's own headers at the bake's first and last answer: primary window (300 min) 12% → 12% used.");
      const grep = await execa('grep', ['-rlF', CANARY, out.dir], { reject: false });
      expect(grep.stdout).toBe('');
    });

    it('a plan-limit answer voids the run with usage-limit, never a loss', async () => {
      codexStandIn.usageLimit = true;
      const limited = path.join(dir, 'codex-limited');
      const r = await bakeoff(['run', suite, '--agent', 'codex:gpt-5.5@lowest', '--auth', 'subscription', '--upstream', codexStandIn.url, '--runs', '1', '--out', limited, '--json'], { env });
      codexStandIn.usageLimit = false;
      expect([0, 1], r.stderr).toContain(r.exitCode);
      const { runs, requests } = runsOf(limited);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ outcome: 'void', reason: 'usage-limit' });
      expect(runs[0]!.detail).toMatch(/usage limit/);
      const limitedRequests = requests.filter((q) => q.failure === 'usage-limit');
      expect(limitedRequests.length).toBeGreaterThan(0);
      expect(JSON.parse(limitedRequests[0]!.quota_json!)).toMatchObject({ 'x-codex-rate-limit-reached-type': 'primary' });
    }, 600_000);
  });

  describe('Codex: the sandbox holds no real token', () => {
    let report = '';
    beforeAll(async () => {
      // the login refreshed by the bake above is current: this stand-in takes that access token
      codexSearchStandIn.codexAccess = codexStandIn.codexAccess;
      codexSearchStandIn.codexRefresh = codexStandIn.codexRefresh;
      const out = path.join(dir, 'codex-search-out');
      const r = await bakeoff(['run', suite, '--agent', 'codex:gpt-5.5@lowest', '--auth', 'subscription', '--upstream', codexSearchStandIn.url, '--runs', '1', '--out', out, '--json'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      const { runs } = runsOf(out);
      report = await readFile(path.join(out, 'runs', runs[0]!.id, 'order-1', 'change.patch'), 'utf8');
      const grep = await execa('grep', ['-rlF', CANARY, out], { reject: false });
      expect(grep.stdout).toBe('');
    }, 600_000);

    it('inside, the search found the dummy login but no real token and no API key: not in the environment, any process, or any file', () => {
      expect(leakCount(report, 'dummy-files')).toBeGreaterThan(0); // positive control: $CODEX_HOME/auth.json, the dummy login
      expectNoLeak(report);
      expect(codexSearchStandIn.refreshes).toBe(0);
      expect(codexSearchStandIn.seen.filter((s) => s.path.startsWith('/backend-api/codex/responses')).every((s) => s.headers.authorization === `Bearer ${codexStandIn.codexAccess}`)).toBe(true);
    });
  });

  describe('Claude Code: the sandbox holds no real token', () => {
    let report = '';
    beforeAll(async () => {
      const out = path.join(dir, 'claude-out');
      const r = await bakeoff(['run', suite, '--agent', 'claude-code:claude-sonnet-4-5', '--auth', 'subscription', '--upstream', claudeStandIn.url, '--runs', '1', '--out', out, '--json'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      const { runs } = runsOf(out);
      report = await readFile(path.join(out, 'runs', runs[0]!.id, 'order-1', 'change.patch'), 'utf8');
      const grep = await execa('grep', ['-rlF', CANARY, out], { reject: false });
      expect(grep.stdout).toBe('');
    }, 600_000);

    it('the plan\'s OAuth token reached the stand-in as a Bearer with the oauth beta; the dummy and the API key never did', () => {
      const messages = claudeStandIn.seen.filter((s) => s.path.startsWith('/v1/messages'));
      expect(messages.length).toBeGreaterThan(0);
      for (const s of claudeStandIn.seen) {
        const text = JSON.stringify(s.headers);
        expect(text).not.toContain('bakeoff-dummy');
        expect(text).not.toContain(API_KEY);
      }
      for (const s of messages) {
        expect(s.headers.authorization).toBe(`Bearer ${CLAUDE_TOKEN}`);
        expect(s.headers['x-api-key']).toBeUndefined();
      }
    });

    it('a plan-limit answer voids the run with usage-limit, never a loss', async () => {
      claudeStandIn.usageLimit = true;
      const limited = path.join(dir, 'claude-limited');
      const started = performance.now();
      const r = await bakeoff(['run', suite, '--agent', 'claude-code:claude-sonnet-4-5', '--auth', 'subscription', '--upstream', claudeStandIn.url, '--runs', '1', '--out', limited, '--json'], { env });
      claudeStandIn.usageLimit = false;
      expect([0, 1], r.stderr).toContain(r.exitCode);
      const { runs, requests } = runsOf(limited);
      expect(runs).toHaveLength(1);
      expect(runs[0], `${Math.round(performance.now() - started)} ms`).toMatchObject({ outcome: 'void', reason: 'usage-limit' });
      const limitedRequests = requests.filter((q) => q.failure === 'usage-limit');
      expect(limitedRequests.length).toBeGreaterThan(0);
      expect(JSON.parse(limitedRequests[0]!.quota_json!)).toMatchObject({ 'anthropic-ratelimit-unified-status': 'rejected' });
    }, 600_000);

    it('inside, the search found the dummy but no real token and no API key: not in the environment, any process, or any file', () => {
      // positive control: the dummy is found in the CLI's own process environment (Claude Code
      // leaves CLAUDE_CODE_OAUTH_TOKEN out of its Bash tool's environment, so `env` shows none)
      expect(leakCount(report, 'dummy-proc')).toBeGreaterThan(0);
      expectNoLeak(report);
    });
  });
});
