import type { Harness } from '../types.js';
import { parseGeminiStream } from './parse-stream.js';
import { GEMINI_BIN, setupGeminiCli } from './setup.js';
import { geminiEfforts } from './thinking.js';

/** Gemini CLI: the Gemini API only; prints `0.61.0` for `--version`. */
export const geminiCli: Harness<'gemini-cli'> = {
  name: 'gemini-cli',
  npmPackage: '@google/gemini-cli',
  version: '0.61.0',
  example: 'gemini-2.5-pro@low',
  bin: GEMINI_BIN,
  efforts: geminiEfforts,
  wireFormat: () => 'gemini-generate',
  setup: setupGeminiCli,
  parse: parseGeminiStream,
};
