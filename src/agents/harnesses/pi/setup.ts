import path from 'node:path';
import { splitProviderModel } from '../provider-model.js';
import type { HarnessSetup, SetupInput } from '../types.js';
import { PI_KEY_VARIABLE, piModelsJson } from './models-json.js';

/** Relative to the install prefix: pi's `dist/cli.js` (a node script). */
export const PI_BIN = 'node_modules/.bin/pi';

/**
 * `pi -p --mode json`. pi's own argument parser takes an argument that starts with `-` for an
 * option and one that starts with `@` for a file to attach, and has no `--`: such a prompt
 * gets one leading space (the only prompt bakeoff alters, and only then).
 * `PI_OFFLINE=1` stops startup network work (version check, fd/rg download), `PI_TELEMETRY=0`
 * install telemetry. Retries stay as shipped (settings `retry.*` untouched).
 */
export function setupPi(input: SetupInput): HarnessSetup {
  const ref = splitProviderModel('pi', input.model);
  const agentDir = path.posix.join(input.home, '.pi/agent');
  return {
    homeFiles: { '.pi/agent/models.json': piModelsJson(input, ref) },
    argv: [
      path.posix.join(input.installDir, PI_BIN),
      '-p',
      '--mode', 'json',
      '--provider', ref.provider,
      '--model', ref.id,
      ...(input.effort === null ? [] : ['--thinking', input.effort]),
      shieldPrompt(input.prompt),
    ],
    env: {
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: '1',
      PI_SKIP_VERSION_CHECK: '1',
      PI_TELEMETRY: '0',
      [PI_KEY_VARIABLE]: input.apiKey,
    },
  };
}

/** A prompt pi's parser would take for an option (`-`) or a file (`@`) gets one leading space. */
function shieldPrompt(prompt: string): string {
  return /^[-@]/.test(prompt) ? ` ${prompt}` : prompt;
}
