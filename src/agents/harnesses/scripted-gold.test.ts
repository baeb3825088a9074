import { describe, expect, it } from 'vitest';
import { capturedStream, scriptedGoldTranscript, type GoldSteps } from './captured-streams.test-support.js';
import { STREAM_READERS } from './stream-readers.js';

/*
 * The scripted gold session (`scripted-gold.jsonl` of test/fixtures/harness-streams/<harness>/)
 * as the harnesses that say what they do before each step tell it: each step said, called with
 * its input and answered, then the final answer. Claude Code (one more step: it reads the file
 * before editing it) and Codex (apply_patch file changes, no texts) are in their own
 * read-transcript tests.
 */
const TOLD: readonly { readonly harness: 'gemini-cli' | 'opencode' | 'pi'; readonly how: string; readonly steps: GoldSteps }[] = [
  {
    harness: 'gemini-cli',
    how: 'texts joined from their deltas, a result without output as its status',
    steps: {
      write: { tool: 'write_file', pathKey: 'file_path', output: 'success' },
      shell: { tool: 'run_shell_command', output: '' },
      edit: { tool: 'replace', input: 'file_path: /workspace/src/math.mjs\nold_string:\n    return a - b;\nnew_string:\n    return a + b;\ninstruction: Update src/math.mjs', output: 'success' },
    },
  },
  {
    harness: 'opencode',
    how: 'each tool call with its input and output',
    steps: {
      write: { tool: 'write', pathKey: 'filePath', output: 'Wrote file successfully.' },
      shell: { tool: 'bash', output: '(no output)' },
      edit: { tool: 'edit', input: 'filePath: /workspace/src/math.mjs\noldString:\n    return a - b;\nnewString:\n    return a + b;', output: 'Edit applied successfully.' },
    },
  },
  {
    harness: 'pi',
    how: 'from its message_end events; its edit takes a list of {oldText, newText}',
    steps: {
      write: { tool: 'write', pathKey: 'path', output: 'Successfully wrote 25 bytes to /workspace/NOTES.md' },
      shell: { tool: 'bash', output: '(no output)' },
      edit: { tool: 'edit', input: 'path: /workspace/src/math.mjs\nedits:\n  -\n    oldText:\n        return a - b;\n    newText:\n        return a + b;', output: 'Successfully replaced 1 block(s) in /workspace/src/math.mjs.' },
    },
  },
];

describe('transcript of the scripted gold session', () => {
  it.each(TOLD)('$harness tells each step said, called and answered, then the final answer ($how)', ({ harness, steps }) => {
    expect(STREAM_READERS[harness].transcript(capturedStream(harness, 'scripted-gold.jsonl'))).toEqual(scriptedGoldTranscript(steps));
  });
});
