import path from 'node:path';
import { splitProviderModel } from '../provider-model.js';
import type { HarnessSetup, SetupInput } from '../types.js';
import { PI_KEY_VARIABLE, piModelsJson } from './models-json.js';

/** Relative to the install prefix: pi's `dist/cli.js` (a node script). */
export const PI_BIN = 'node_modules/.bin/pi';

/**
 * `pi -p --mode json` with the prompt on stdin, never on the command line. pi trims what it reads
 * there and appends its first message argument, so the prompt's trailing whitespace (a final
 * newline, say) follows as that argument and the prompt arrives byte-exact, except leading
 * whitespace, which pi drops (the one alteration; docs/suite-format.md). The argument is
 * whitespace only, so pi's parser never takes it for an option (`-`) or a file (`@`).
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
      ...trailingWhitespace(input.prompt),
    ],
    stdin: input.prompt,
    env: {
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: '1',
      PI_SKIP_VERSION_CHECK: '1',
      PI_TELEMETRY: '0',
      [PI_KEY_VARIABLE]: input.apiKey,
    },
  };
}

/** What pi's trim of stdin takes off the prompt's end, as its message argument (none when nothing). */
function trailingWhitespace(prompt: string): string[] {
  const tail = prompt.slice(prompt.trimEnd().length);
  return tail === '' ? [] : [tail];
}
