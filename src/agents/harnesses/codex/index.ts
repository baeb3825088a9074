import type { Harness } from '../types.js';
import { readCodexCatalog } from './catalog.js';
import { CODEX_BIN, setupCodex } from './setup.js';

/** OpenAI Codex CLI: OpenAI Responses only; prints `codex-cli 0.171.0` for `--version`. */
export const codex: Harness<'codex'> = {
  name: 'codex',
  npmPackage: '@openai/codex',
  version: '0.171.0',
  example: 'gpt-5.5@high',
  bin: CODEX_BIN,
  catalog: readCodexCatalog,
  webTools: { names: ['web_search'], switch: 'web_search = "disabled" in config.toml' },
  wireFormat: () => 'openai-responses',
  setup: setupCodex,
  stream: async () => ({ parse: (await import('./parse-stream.js')).parseCodexStream, transcript: (await import('./read-transcript.js')).readCodexTranscript }),
};
