import { chmod, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InfraError, UserError } from '../../errors.js';

/** The harnesses that run on a subscription: Codex on a ChatGPT plan, Claude Code on a Claude plan. */
export const SUBSCRIPTION_HARNESSES = ['codex', 'claude-code'] as const;
export type SubscriptionHarness = (typeof SUBSCRIPTION_HARNESSES)[number];

export function isSubscriptionHarness(name: string): name is SubscriptionHarness {
  return (SUBSCRIPTION_HARNESSES as readonly string[]).includes(name);
}

/**
 * A subscription login as bakeoff keeps it, on the host only (never in a sandbox, never in
 * results): the real tokens, and what may be shown (plan, expiry).
 */
export interface StoredCredential {
  readonly harness: SubscriptionHarness;
  readonly accessToken: string;
  /** Null: a token that cannot be refreshed (Claude Code's `setup-token`, valid a year). */
  readonly refreshToken: string | null;
  /** Codex: the id_token (a JWT whose claims carry plan and account). */
  readonly idToken: string | null;
  /** Codex: the ChatGPT account id, sent as `chatgpt-account-id`. */
  readonly accountId: string | null;
  /** The plan as the login names it (`plus`, `pro`, `max` …), null when it does not say. */
  readonly plan: string | null;
  /** Milliseconds since the epoch when the access token expires; null: not known. */
  readonly expiresAt: number | null;
  /** ISO time of the last refresh (or of the login, for an imported one). */
  readonly lastRefresh: string;
  /** Where it was imported from. */
  readonly importedFrom: string;
}

/** bakeoff's credential folder: `$BAKEOFF_AUTH_DIR`, else `~/.config/bakeoff/auth` (0700, files 0600). */
export function credentialDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.BAKEOFF_AUTH_DIR) return path.resolve(env.BAKEOFF_AUTH_DIR);
  return path.join(env.HOME ?? os.homedir(), '.config', 'bakeoff', 'auth');
}

export function credentialFile(dir: string, harness: SubscriptionHarness): string {
  return path.join(dir, `${harness}.json`);
}

/** The stored login of `harness`; a UserError saying how to import one when there is none. */
export async function readCredential(dir: string, harness: SubscriptionHarness): Promise<StoredCredential> {
  const file = credentialFile(dir, harness);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new UserError(`auth: subscription: no ${harness} login in ${dir}; run \`bakeoff auth import ${harness}\` first (a subscription run never falls back to an API key)`);
  }
  try {
    const parsed = JSON.parse(text) as StoredCredential;
    if (parsed.harness !== harness || typeof parsed.accessToken !== 'string') throw new Error('not a stored login');
    return parsed;
  } catch (error) {
    throw new UserError(`${file}: expected a login written by \`bakeoff auth import ${harness}\`, received something else (${(error as Error).message}); import it again`);
  }
}

/** Writes a login atomically (beside, then renamed), the folder 0700 and the file 0600. */
export async function writeCredential(dir: string, credential: StoredCredential): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = credentialFile(dir, credential.harness);
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, JSON.stringify(credential, null, 2) + '\n', { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
  return file;
}

/** The claims of a JWT, read without checking its signature (as Codex itself reads its id_token); null when it is not one. */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return claims !== null && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The `https://api.openai.com/auth` claims of a Codex token. */
export function openAiAuthClaims(token: string | null): Record<string, unknown> {
  const claims = token ? jwtClaims(token) : null;
  const auth = claims?.['https://api.openai.com/auth'];
  return auth !== null && typeof auth === 'object' ? (auth as Record<string, unknown>) : {};
}

function expOf(token: string): number | null {
  const exp = jwtClaims(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/**
 * Reads the user's existing login of `harness` (nothing is changed there): Codex's `auth.json`
 * (`from`, else `$CODEX_HOME/auth.json`, else `~/.codex/auth.json`) with a ChatGPT login in it;
 * Claude Code's OAuth token (`from`, a `.credentials.json`; else `CLAUDE_CODE_OAUTH_TOKEN`, the
 * token `claude setup-token` prints; else `$CLAUDE_CONFIG_DIR/.credentials.json` or
 * `~/.claude/.credentials.json`). UserErrors name the file and what was expected.
 */
export async function readUserLogin(harness: SubscriptionHarness, env: Readonly<Record<string, string | undefined>>, from?: string): Promise<StoredCredential> {
  const home = env.HOME ?? os.homedir();
  const now = new Date().toISOString();
  if (harness === 'codex') {
    const file = from ?? path.join(env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, '.codex'), 'auth.json');
    const data = await readJson(file, 'Codex\'s auth.json (run `codex login` first)');
    const tokens = (data.tokens ?? {}) as Record<string, unknown>;
    const accessToken = text(tokens.access_token);
    const refreshToken = text(tokens.refresh_token);
    if (!accessToken || !refreshToken) {
      throw new UserError(`${file}: tokens: expected a ChatGPT login (tokens.access_token and tokens.refresh_token; \`codex login\`), received ${data.OPENAI_API_KEY ? 'an API key login' : 'no tokens'}`);
    }
    const idToken = text(tokens.id_token);
    const claims = openAiAuthClaims(idToken);
    return {
      harness, accessToken, refreshToken, idToken,
      accountId: text(tokens.account_id) ?? text(claims.chatgpt_account_id),
      plan: text(claims.chatgpt_plan_type),
      expiresAt: expOf(accessToken),
      lastRefresh: text(data.last_refresh) ?? now,
      importedFrom: file,
    };
  }
  const token = from === undefined ? text(env.CLAUDE_CODE_OAUTH_TOKEN) : null;
  if (token) {
    return { harness, accessToken: token, refreshToken: null, idToken: null, accountId: null, plan: null, expiresAt: null, lastRefresh: now, importedFrom: 'CLAUDE_CODE_OAUTH_TOKEN' };
  }
  const file = from ?? path.join(env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : path.join(home, '.claude'), '.credentials.json');
  const data = await readJson(file, 'Claude Code\'s .credentials.json (run `claude` and /login, or set CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`)');
  const oauth = (data.claudeAiOauth ?? {}) as Record<string, unknown>;
  const accessToken = text(oauth.accessToken);
  if (!accessToken) throw new UserError(`${file}: claudeAiOauth.accessToken: expected a Claude plan login, received none`);
  return {
    harness, accessToken, refreshToken: text(oauth.refreshToken), idToken: null, accountId: null,
    plan: text(oauth.subscriptionType), expiresAt: typeof oauth.expiresAt === 'number' ? oauth.expiresAt : null,
    lastRefresh: now, importedFrom: file,
  };
}

async function readJson(file: string, what: string): Promise<Record<string, unknown>> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch {
    throw new UserError(`${file}: expected ${what}, received no readable file`);
  }
  try {
    const data = JSON.parse(raw) as unknown;
    if (data === null || typeof data !== 'object') throw new Error('not an object');
    return data as Record<string, unknown>;
  } catch (error) {
    throw new UserError(`${file}: expected ${what} as JSON, received something else (${(error as Error).message})`);
  }
}

/** Waits for the folder's lock of `harness` (a file made with O_EXCL holding the pid; a dead holder's is taken over), runs `fn`, releases. */
export async function withCredentialLock<T>(dir: string, harness: SubscriptionHarness, fn: () => Promise<T>): Promise<T> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const lock = path.join(dir, `${harness}.lock`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new InfraError(`${lock}: another bakeoff (pid ${holder}) has held the ${harness} login's lock for a minute; remove the file if that process is gone`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
