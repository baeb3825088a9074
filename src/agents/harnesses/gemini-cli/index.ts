import { parseSemver } from '../parse-version.js';
import type { Harness } from '../types.js';
import { parseGeminiStream } from './parse-stream.js';
import { GEMINI_BIN, setupGeminiCli } from './setup.js';
import { geminiEfforts } from './thinking.js';

/** Gemini CLI: the Gemini API only; prints `0.61.0` for `--version`. */
export const geminiCli: Harness = {
  name: 'gemini-cli',
  npmPackage: '@google/gemini-cli',
  version: '0.61.0',
  bin: GEMINI_BIN,
  versionArgs: ['--version'],
  parseVersion: parseSemver,
  efforts: geminiEfforts,
  wireFormat: () => 'gemini-generate',
  setup: setupGeminiCli,
  parse: parseGeminiStream,
};
