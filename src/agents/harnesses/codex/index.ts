import type { Harness } from '../types.js';
import { codexEfforts } from './efforts.js';
import { parseCodexStream } from './parse-stream.js';
import { CODEX_BIN, setupCodex } from './setup.js';

/** OpenAI Codex CLI: OpenAI Responses only; prints `codex-cli 0.171.0` for `--version`. */
export const codex: Harness<'codex'> = {
  name: 'codex',
  npmPackage: '@openai/codex',
  version: '0.171.0',
  example: 'gpt-5.5@high',
  bin: CODEX_BIN,
  efforts: codexEfforts,
  wireFormat: () => 'openai-responses',
  setup: setupCodex,
  parse: parseCodexStream,
};
