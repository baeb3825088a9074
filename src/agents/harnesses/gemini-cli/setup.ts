import path from 'node:path';
import type { HarnessSetup, SetupInput } from '../types.js';
import { geminiSettingsJson } from './settings.js';

/** Relative to the install prefix: the CLI's JS bundle (a node script). */
export const GEMINI_BIN = 'node_modules/.bin/gemini';

/**
 * `gemini --prompt= --output-format stream-json --yolo -m <model>` with the prompt on stdin: the
 * CLI appends `--prompt` (empty here) to what stdin holds, so the prompt arrives byte-exact and
 * never meets the option parser or the argument-size limit. `-m` always: without it the CLI's "auto"
 * model spends a routing request first. `GOOGLE_GEMINI_BASE_URL` + `GEMINI_API_KEY` send the
 * Gemini API (`/v1beta/models/<m>:streamGenerateContent?alt=sse`) to the metering proxy.
 * Retries stay as shipped.
 */
export function setupGeminiCli(input: SetupInput): HarnessSetup {
  return {
    homeFiles: { '.gemini/settings.json': geminiSettingsJson(input) },
    argv: [
      path.posix.join(input.installDir, GEMINI_BIN),
      '--prompt=',
      '--output-format', 'stream-json',
      '--yolo',
      '-m', input.model,
    ],
    stdin: input.prompt,
    env: { GOOGLE_GEMINI_BASE_URL: input.baseUrl, GEMINI_API_KEY: input.apiKey },
  };
}
