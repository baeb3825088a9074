import path from 'node:path';
import type { HarnessSetup, SetupInput } from '../types.js';

/** Relative to the install prefix: the JS launcher that execs the vendored musl binary (needs `node` on PATH). */
export const CODEX_BIN = 'node_modules/.bin/codex';

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
 * `--dangerously-bypass-approvals-and-sandbox`: bakeoff's sandbox replaces Codex's own. The
 * prompt goes on stdin, which `codex exec` reads byte-exact when no prompt argument is given.
 */
export function setupCodex(input: SetupInput): HarnessSetup {
  const codexHome = path.posix.join(input.home, '.codex');
  return {
    homeFiles: { '.codex/config.toml': codexConfigToml(input) },
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
    env: { CODEX_HOME: codexHome, [KEY_VARIABLE]: input.apiKey },
  };
}

/** `$CODEX_HOME/config.toml`: the model, the metering proxy as provider, no background traffic. */
export function codexConfigToml(input: SetupInput): string {
  return [
    `model = ${tomlString(input.model)}`,
    'model_provider = "bakeoff"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    '',
    '[model_providers.bakeoff]',
    'name = "bakeoff metering proxy"',
    `base_url = ${tomlString(`${input.baseUrl}/v1`)}`,
    `env_key = "${KEY_VARIABLE}"`,
    'wire_api = "responses"',
    `request_max_retries = ${REQUEST_MAX_RETRIES}`,
    `stream_max_retries = ${STREAM_MAX_RETRIES}`,
    '',
  ].join('\n');
}

/** A TOML basic string; JSON's escapes are a subset of TOML's. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}
