import type { Harness } from '../types.js';
import { GEMINI_WEB_TOOLS } from './settings.js';
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
  effortsSource: "bakeoff's mapping onto Gemini CLI 0.61.0's thinking settings (the CLI has no effort flag)",
  webTools: { names: GEMINI_WEB_TOOLS, switch: `tools.exclude ${JSON.stringify(GEMINI_WEB_TOOLS)} in settings.json` },
  wireFormat: () => 'gemini-generate',
  setup: setupGeminiCli,
  stream: async () => ({ parse: (await import('./parse-stream.js')).parseGeminiStream, transcript: (await import('./read-transcript.js')).readGeminiTranscript }),
};
