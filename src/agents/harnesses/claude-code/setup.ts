import path from 'node:path';
import type { HarnessSetup, SetupInput } from '../types.js';

/** What a subscription session holds instead of the plan's token (`claude setup-token`'s shape); the proxy swaps in the real one. */
export const DUMMY_OAUTH_TOKEN = 'sk-ant-oat01-bakeoff-dummy-token-the-proxy-swaps-in-the-real-one';

/**
 * Claude Code's own web tools (deferred tools, loaded through ToolSearch; WebSearch then sends
 * the server tool `web_search_20250305`), denied on the closed web.
 */
export const CLAUDE_WEB_TOOLS = ['WebSearch', 'WebFetch'] as const;

/** Relative to the install prefix; npm links it to the Bun-compiled `bin/claude.exe`. */
export const CLAUDE_BIN = 'node_modules/.bin/claude';

/**
 * Claude Code refuses `--dangerously-skip-permissions` as root unless `IS_SANDBOX=1`, and that
 * variable also changes other behaviour (e.g. how repeated 529s are retried). Only the sandbox
 * knows whether the session runs as root, so a `/bin/sh` prelude decides there, with Claude
 * Code's own test (`getuid() === 0`), then execs the CLI with the arguments unchanged.
 */
const SET_IS_SANDBOX_WHEN_ROOT = 'if [ "$(id -u)" = 0 ]; then export IS_SANDBOX=1; fi; exec "$0" "$@"';

/**
 * `claude -p` with the stream-json event stream. No config files: a fresh HOME is a fresh
 * Claude Code (it creates `~/.claude.json` and `~/.claude/` itself).
 *
 * - `--dangerously-skip-permissions`: nobody can answer a permission prompt; bakeoff's sandbox
 *   is the boundary. `IS_SANDBOX=1` is added at run time when the session runs as root.
 * - `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1` alone removed every outside connection
 *   (telemetry, update check, the `/api/hello` pre-warm); see agent-clis.md §3.1.
 * - Retries stay as shipped (`CLAUDE_CODE_MAX_RETRIES` unset).
 * - Closed web: `--disallowedTools WebSearch,WebFetch` (its own web tools leave the tool list).
 * - The prompt goes on stdin, which `claude -p` reads byte-exact when no prompt argument is given
 *   (measured: a 180 KB prompt with leading spaces, a leading `-`, `@…` and trailing blank
 *   lines arrived unchanged): no argument-size limit (E2BIG), nothing for the option parser.
 */
export function setupClaudeCode(input: SetupInput): HarnessSetup {
  return {
    homeFiles: {},
    argv: [
      '/bin/sh', '-c', SET_IS_SANDBOX_WHEN_ROOT,
      path.posix.join(input.installDir, CLAUDE_BIN),
      '-p',
      '--output-format', 'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      ...(input.openWeb ? [] : ['--disallowedTools', CLAUDE_WEB_TOOLS.join(',')]),
      '--model', input.model,
      ...(input.effort === null ? [] : ['--effort', input.effort]),
    ],
    stdin: input.prompt,
    env: {
      ANTHROPIC_BASE_URL: input.baseUrl,
      // a subscription run: a dummy OAuth token of the plan's shape (sent as a Bearer with the
      // oauth beta header) and no API key at all, which Claude Code would prefer over it
      ...(input.subscription ? { CLAUDE_CODE_OAUTH_TOKEN: DUMMY_OAUTH_TOKEN } : { ANTHROPIC_API_KEY: input.apiKey }),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
  };
}
