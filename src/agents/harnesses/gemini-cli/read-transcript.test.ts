import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { geminiCli } from './index.js';

const fixture = (file: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../../test/fixtures/harness-streams/gemini-cli/${file}`, import.meta.url)), 'utf8');

describe('transcript on streams captured from gemini 0.61.0', () => {
  it('tells a gold session as texts (deltas joined), tool calls with their inputs, results and the final answer', () => {
    expect(geminiCli.transcript(fixture('scripted-gold.jsonl'))).toEqual([
      { kind: 'text', text: 'I will create NOTES.md.' },
      { kind: 'tool-call', tool: 'write_file', summary: '/workspace/NOTES.md', input: 'file_path: /workspace/NOTES.md\ncontent:\n  # Notes\n  \n  add() now adds.' },
      // a result without output says its status
      { kind: 'tool-result', tool: 'write_file', output: 'success', isError: false },
      { kind: 'text', text: 'I will run a command: delete readme.md.' },
      { kind: 'tool-call', tool: 'run_shell_command', summary: "rm '/workspace/README.md'", input: "command: rm '/workspace/README.md'" },
      { kind: 'tool-result', tool: 'run_shell_command', output: '', isError: false },
      { kind: 'text', text: 'I will update src/math.mjs.' },
      {
        kind: 'tool-call', tool: 'replace', summary: '/workspace/src/math.mjs',
        input: 'file_path: /workspace/src/math.mjs\nold_string:\n    return a - b;\nnew_string:\n    return a + b;\ninstruction: Update src/math.mjs',
      },
      { kind: 'tool-result', tool: 'replace', output: 'success', isError: false },
      { kind: 'final', text: 'Done: created NOTES.md, deleted README.md, updated src/math.mjs.' },
    ]);
  });

  it('gives a command\'s output as the CLI printed it (it calls a failed cat a success)', () => {
    const entries = geminiCli.transcript(fixture('failed-command.jsonl'));
    expect(entries.filter((e) => e.kind === 'tool-call').map((e) => e.kind === 'tool-call' && e.summary)).toEqual(['cat /workspace/no-such-notes.txt', 'ls /workspace']);
    expect(entries[1]).toEqual({ kind: 'tool-result', tool: 'run_shell_command', output: 'cat: /workspace/no-such-notes.txt: No such file or directory', isError: false });
    expect(entries.at(-1)).toEqual({ kind: 'final', text: 'There are no notes; I leave the code as it is.' });
  });

  it('tells a session that ended with result status error as that error', () => {
    expect(geminiCli.transcript(fixture('failure.jsonl'))).toEqual([{ kind: 'error', message: '[API Error: {"error":{"type":"api_error","message":"stub failure 500","code":500}}]' }]);
  });
});
