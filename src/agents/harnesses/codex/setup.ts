import path from 'node:path';
import type { HarnessSetup, SetupInput } from '../types.js';

/** Relative to the install prefix: the JS launcher that execs the vendored musl binary (needs `node` on PATH). */
export const CODEX_BIN = 'node_modules/.bin/codex';

/** The model catalog the levels were resolved from, under CODEX_HOME: the session's Codex uses the same one. */
const CATALOG_FILE = 'bakeoff-model-catalog.json';

/** The variable the custom provider reads its key from (sent as `Authorization: Bearer`). */
const KEY_VARIABLE = 'BAKEOFF_API_KEY';

/**
 * Codex's defaults for a provider that leaves them unset (`DEFAULT_REQUEST_MAX_RETRIES = 4`,
 * `DEFAULT_STREAM_MAX_RETRIES = 5` in codex-rs `model_provider_info.rs`), written out so the
 * measured harness retries as shipped: 5 × 6 = 30 requests before a 500 becomes `turn.failed`.
 */
const REQUEST_MAX_RETRIES = 4;
const STREAM_MAX_RETRIES = 5;

/**
 * `codex exec --json` against a custom Responses provider. The built-in `openai` provider
 * ignores `OPENAI_BASE_URL` and, redirected with `openai_base_url`, tries WebSockets first
 * (agent-clis.md §3.2); a custom provider posts straight to `<base>/v1/responses`.
 * `analytics.enabled = false` and `features.plugins = false` removed every outside lookup.
 * Closed web: `web_search = "disabled"`.
 * `--dangerously-bypass-approvals-and-sandbox`: bakeoff's sandbox replaces Codex's own. The
 * prompt goes on stdin, which `codex exec` reads byte-exact when no prompt argument is given.
 */
export function setupCodex(input: SetupInput): HarnessSetup {
  const codexHome = path.posix.join(input.home, '.codex');
  return {
    homeFiles: {
      '.codex/config.toml': codexConfigToml(input),
      ...(input.subscription ? { '.codex/auth.json': dummyChatGptAuth(input.subscription.plan) } : {}),
      ...(input.catalog === undefined ? {} : { [`.codex/${CATALOG_FILE}`]: input.catalog }),
    },
    argv: [
      path.posix.join(input.installDir, CODEX_BIN),
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '-m', input.model,
      '-C', input.workspace,
      ...(input.effort === null ? [] : ['-c', `model_reasoning_effort=${tomlString(input.effort)}`]),
    ],
    stdin: input.prompt,
    env: { CODEX_HOME: codexHome, ...(input.subscription ? {} : { [KEY_VARIABLE]: input.apiKey }) },
  };
}

/**
 * `$CODEX_HOME/config.toml`: the model, the metering proxy as provider, no background traffic,
 * and (`model_catalog_json`) the catalog bakeoff read the levels from, so the session follows it.
 */
export function codexConfigToml(input: SetupInput): string {
  return [
    `model = ${tomlString(input.model)}`,
    'model_provider = "bakeoff"',
    ...(input.catalog === undefined ? [] : [`model_catalog_json = ${tomlString(path.posix.join(input.home, '.codex', CATALOG_FILE))}`]),
    'check_for_update_on_startup = false',
    // closed web: no web_search tool in the requests (Codex sends it in every one otherwise)
    ...(input.openWeb ? [] : ['web_search = "disabled"']),
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    // request bodies stay readable by the proxy's tool policy (it cannot decode zstd)
    'enable_request_compression = false',
    // ChatGPT mode reaches for the plan's apps (an MCP server at chatgpt.com): nothing to reach here
    ...(input.subscription ? ['apps = false'] : []),
    '',
    '[model_providers.bakeoff]',
    'name = "bakeoff metering proxy"',
    // a subscription: the ChatGPT backend's paths, and the login in auth.json (a dummy) as the credential
    ...(input.subscription
      ? [`base_url = ${tomlString(`${input.baseUrl}/backend-api/codex`)}`, 'requires_openai_auth = true']
      : [`base_url = ${tomlString(`${input.baseUrl}/v1`)}`, `env_key = "${KEY_VARIABLE}"`]),
    'wire_api = "responses"',
    `request_max_retries = ${REQUEST_MAX_RETRIES}`,
    `stream_max_retries = ${STREAM_MAX_RETRIES}`,
    '',
  ].join('\n');
}

/** The account id a subscription session's dummy login names; the proxy sends the real one. */
export const DUMMY_ACCOUNT_ID = 'bakeoff-dummy-account';
/** The dummy access token's signature part: what marks it as bakeoff's (never a real token). */
const DUMMY_SIGNATURE = 'bakeoff-dummy-signature';

/**
 * A ChatGPT login of the right shape with no secret in it: unsigned JWTs (Codex reads the
 * claims without checking a signature) naming the plan, a dummy account, an access token that
 * expires in 2100 and `last_refresh` now, so Codex never tries to refresh; the refresh token is
 * a dummy too. The proxy swaps in the real access token and account id on the way out.
 */
export function dummyChatGptAuth(plan: string | null): string {
  const jwt = (claims: object): string =>
    [{ alg: 'none', typ: 'JWT' }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + `.${DUMMY_SIGNATURE}`;
  const auth = { chatgpt_plan_type: plan ?? 'plus', chatgpt_account_id: DUMMY_ACCOUNT_ID, chatgpt_user_id: 'bakeoff-dummy-user' };
  const exp = Date.UTC(2100, 0, 1) / 1000;
  return JSON.stringify({
    auth_mode: 'chatgpt',
    OPENAI_API_KEY: null,
    tokens: {
      id_token: jwt({ email: 'dummy@bakeoff.invalid', exp, 'https://api.openai.com/auth': auth }),
      access_token: jwt({ exp, 'https://api.openai.com/auth': { chatgpt_account_id: DUMMY_ACCOUNT_ID } }),
      refresh_token: 'bakeoff-dummy-refresh-token',
      account_id: DUMMY_ACCOUNT_ID,
    },
    last_refresh: new Date().toISOString(),
  }, null, 2) + '\n';
}

/** A TOML basic string; JSON's escapes are a subset of TOML's. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}
