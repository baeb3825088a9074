import type { Harness } from '../types.js';
import { claudeEfforts } from './efforts.js';
import { CLAUDE_BIN, CLAUDE_WEB_TOOLS, setupClaudeCode } from './setup.js';

/** Claude Code: Anthropic Messages only; prints `2.1.332 (Claude Code)` for `--version`. */
export const claudeCode: Harness<'claude-code'> = {
  name: 'claude-code',
  npmPackage: '@anthropic-ai/claude-code',
  version: '2.1.332',
  example: 'claude-opus-4-5@high',
  bin: CLAUDE_BIN,
  efforts: claudeEfforts,
  effortsSource: "bakeoff's table of Claude Code 2.1.332's --effort levels per model (the CLI lists none; observed against a stub server and the binary's own model gates)",
  webTools: { names: CLAUDE_WEB_TOOLS, switch: `--disallowedTools ${CLAUDE_WEB_TOOLS.join(',')}` },
  wireFormat: () => 'anthropic-messages',
  setup: setupClaudeCode,
  stream: async () => ({ parse: (await import('./parse-stream.js')).parseClaudeStream, transcript: (await import('./read-transcript.js')).readClaudeTranscript }),
};
