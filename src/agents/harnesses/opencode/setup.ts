import path from 'node:path';
import { splitProviderModel } from '../provider-model.js';
import type { HarnessSetup, SetupInput } from '../types.js';
import { OPENCODE_KEY_VARIABLE, PLUGIN_INSTALL_STOPPERS, opencodeJson } from './opencode-json.js';

/** Relative to the install prefix; npm links it to the Bun-compiled `bin/opencode.exe`. */
export const OPENCODE_BIN = 'node_modules/.bin/opencode';

/** Fixed session title: without `--title`, OpenCode first asks its small model for one (an extra model request that is not the agent's work). */
const TITLE = 'bakeoff';

/**
 * `opencode run --format json`. `--auto` approves what is not explicitly denied (nobody can
 * answer a prompt; bakeoff's sandbox is the boundary). `--dir` pins the project root.
 * Background traffic off: `OPENCODE_DISABLE_MODELS_FETCH` (models.dev catalog; the bundled
 * snapshot is used), `OPENCODE_DISABLE_AUTOUPDATE`, `OPENCODE_DISABLE_LSP_DOWNLOAD` (language
 * servers fetched on first edit of a file type), and the pre-seeded plugin dir.
 * Retries stay as shipped.
 *
 * The prompt goes on stdin, which `run` reads when no message argument is given, byte-exact.
 * As arguments it would be changed: `run` wraps every argument that contains a space in double
 * quotes (escaping the quotes inside), and its yargs parser turns a word like `4180` or `10.25`
 * into a number and then crashes on it ("G.includes is not a function").
 */
export function setupOpencode(input: SetupInput): HarnessSetup {
  const ref = splitProviderModel('opencode', input.model);
  return {
    homeFiles: { '.config/opencode/opencode.json': opencodeJson(input, ref), ...PLUGIN_INSTALL_STOPPERS },
    argv: [
      path.posix.join(input.installDir, OPENCODE_BIN),
      'run',
      '--format', 'json',
      '--title', TITLE,
      '--auto',
      '--dir', input.workspace,
      '--model', input.model,
      ...(input.effort === null ? [] : ['--variant', input.effort]),
    ],
    stdin: input.prompt,
    env: {
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      [OPENCODE_KEY_VARIABLE]: input.apiKey,
    },
  };
}
