import { UserError } from '../../errors.js';
import type { Upstream } from '../proxy/proxy-types.js';
import type { WireFormat } from '../types.js';
import { jwtClaims, openAiAuthClaims, readCredential, withCredentialLock, writeCredential, type StoredCredential, type SubscriptionHarness } from './credential-store.js';

/** Where each subscription's model requests go (its own backend, not the API). */
export const SUBSCRIPTION_BASE: Readonly<Record<SubscriptionHarness, string>> = {
  codex: 'https://chatgpt.com/backend-api/codex',
  'claude-code': 'https://api.anthropic.com',
};

/** The OAuth token endpoints and public client ids the CLIs refresh with (overridable, e.g. for a local stand-in). */
const REFRESH: Readonly<Record<SubscriptionHarness, { readonly url: string; readonly env: string; readonly clientId: string }>> = {
  codex: { url: 'https://auth.openai.com/oauth/token', env: 'BAKEOFF_CODEX_REFRESH_URL', clientId: 'app_EMoamEEZ73f0CkXaXp7hrann' },
  'claude-code': { url: 'https://platform.claude.com/v1/oauth/token', env: 'BAKEOFF_CLAUDE_REFRESH_URL', clientId: '9d1c250a-e61b-44d9-88ed-5944d1962f5e' },
};

/** Refresh this long before the access token expires (Codex's own window: 5 minutes). */
const REFRESH_WINDOW_MS = 5 * 60_000;
/** Codex also refreshes a login last refreshed this long ago (`TOKEN_REFRESH_INTERVAL`, 8 days). */
const CODEX_REFRESH_INTERVAL_MS = 8 * 24 * 3600_000;

/** The subscription's own generation endpoint: the only requests the real token is added to. */
function isSubscriptionEndpoint(harness: SubscriptionHarness, method: string, path: string): boolean {
  const p = path.split('?', 1)[0]!.replace(/\/+$/, '');
  if (method.toUpperCase() !== 'POST') return false;
  return harness === 'codex' ? p.endsWith('/backend-api/codex/responses') : p === '/v1/messages';
}

export interface SubscriptionUpstream extends Upstream {
  /** The plan the login names, for records (`subscription:plus`). */
  readonly plan: string | null;
  /** How many times this process refreshed the login (each under the folder's lock). */
  refreshes(): number;
}

/**
 * The upstream of a subscription agent: `base` (the subscription's own backend by default, or a
 * compatible stand-in), with the real token of bakeoff's stored login added on the way out —
 * to the subscription's own generation endpoint only (Codex `POST …/backend-api/codex/responses`
 * with `chatgpt-account-id`; Claude Code `POST /v1/messages` as an OAuth bearer). Nothing else
 * gets a credential, and no API key from the environment is ever used. Before each request the
 * login is refreshed when it is about to expire: on the host alone, once, under the credential
 * folder's lock (Codex refresh tokens are single-use), whatever the number of sessions.
 */
export async function subscriptionUpstream(
  harness: SubscriptionHarness,
  options: { readonly dir: string; readonly base?: string; readonly env: Readonly<Record<string, string | undefined>> },
): Promise<SubscriptionUpstream> {
  let current = await readCredential(options.dir, harness);
  const base = options.base ?? SUBSCRIPTION_BASE[harness];
  let refreshing: Promise<void> | null = null;
  let count = 0;
  const refreshUrl = options.env[REFRESH[harness].env] ?? REFRESH[harness].url;
  const ensureFresh = async (): Promise<void> => {
    if (!due(current)) return;
    // one refresh at a time in this process, and across processes the folder's lock
    refreshing ??= withCredentialLock(options.dir, harness, async () => {
      current = await readCredential(options.dir, harness); // another bakeoff may have refreshed it meanwhile
      if (!due(current)) return;
      current = await refresh(current, refreshUrl, REFRESH[harness].clientId);
      count++;
      await writeCredential(options.dir, current);
    }).finally(() => {
      refreshing = null;
    });
    await refreshing;
  };
  return {
    name: `subscription:${harness}${base === SUBSCRIPTION_BASE[harness] ? '' : `@${base}`}`,
    plan: current.plan,
    refreshes: () => count,
    baseUrl: () => base,
    prepare: async (request) => {
      if (isSubscriptionEndpoint(harness, request.method, request.path)) await ensureFresh();
    },
    authHeaders: (_format: WireFormat | null, request) => {
      if (!request || !isSubscriptionEndpoint(harness, request.method, request.path)) return {};
      if (harness === 'codex') return { authorization: `Bearer ${current.accessToken}`, ...(current.accountId ? { 'chatgpt-account-id': current.accountId } : {}) };
      return { authorization: `Bearer ${current.accessToken}` };
    },
  };
}

function due(c: StoredCredential): boolean {
  const now = Date.now();
  if (c.expiresAt !== null && c.expiresAt - now < REFRESH_WINDOW_MS) return true;
  return c.harness === 'codex' && c.refreshToken !== null && now - Date.parse(c.lastRefresh) > CODEX_REFRESH_INTERVAL_MS;
}

/** One refresh at the token endpoint; the rotated refresh token replaces the used one. */
async function refresh(c: StoredCredential, url: string, clientId: string): Promise<StoredCredential> {
  if (c.refreshToken === null) {
    throw new UserError(`auth: subscription: the stored ${c.harness} login has expired and cannot be refreshed; run \`claude setup-token\` and \`bakeoff auth import ${c.harness}\` again`);
  }
  const body = c.harness === 'codex'
    ? { client_id: clientId, grant_type: 'refresh_token', refresh_token: c.refreshToken, scope: 'openid profile email' }
    : { grant_type: 'refresh_token', refresh_token: c.refreshToken, client_id: clientId };
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch (error) {
    throw new Error(`refreshing the ${c.harness} login at ${url}: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`refreshing the ${c.harness} login at ${url}: HTTP ${response.status} ${text.slice(0, 200)}; run \`bakeoff auth import ${c.harness}\` again`);
  const data = JSON.parse(text) as { access_token?: string; refresh_token?: string; id_token?: string; expires_in?: number };
  if (!data.access_token) throw new Error(`refreshing the ${c.harness} login at ${url}: the answer has no access_token`);
  const idToken = data.id_token ?? c.idToken;
  const exp = jwtClaims(data.access_token)?.exp;
  return {
    ...c,
    accessToken: data.access_token,
    refreshToken: data.refresh_token ?? c.refreshToken,
    idToken,
    plan: c.harness === 'codex' ? ((openAiAuthClaims(idToken).chatgpt_plan_type as string | undefined) ?? c.plan) : c.plan,
    expiresAt: typeof exp === 'number' ? exp * 1000 : typeof data.expires_in === 'number' ? Date.now() + data.expires_in * 1000 : null,
    lastRefresh: new Date().toISOString(),
  };
}
