import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { opencode } from './index.js';

const fixture = (file: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../../test/fixtures/harness-streams/opencode/${file}`, import.meta.url)), 'utf8');

describe('transcript on streams captured from opencode 1.18.33', () => {
  it('tells a gold session as texts, each tool call with its input and output, and the final answer', () => {
    expect(opencode.transcript(fixture('scripted-gold.jsonl'))).toEqual([
      { kind: 'text', text: 'I will create NOTES.md.' },
      { kind: 'tool-call', tool: 'write', summary: '/workspace/NOTES.md', input: 'filePath: /workspace/NOTES.md\ncontent:\n  # Notes\n  \n  add() now adds.' },
      { kind: 'tool-result', tool: 'write', output: 'Wrote file successfully.', isError: false },
      { kind: 'text', text: 'I will run a command: delete readme.md.' },
      { kind: 'tool-call', tool: 'bash', summary: "rm '/workspace/README.md'", input: "command: rm '/workspace/README.md'" },
      { kind: 'tool-result', tool: 'bash', output: '(no output)', isError: false },
      { kind: 'text', text: 'I will update src/math.mjs.' },
      { kind: 'tool-call', tool: 'edit', summary: '/workspace/src/math.mjs', input: 'filePath: /workspace/src/math.mjs\noldString:\n    return a - b;\nnewString:\n    return a + b;' },
      { kind: 'tool-result', tool: 'edit', output: 'Edit applied successfully.', isError: false },
      { kind: 'final', text: 'Done: created NOTES.md, deleted README.md, updated src/math.mjs.' },
    ]);
  });

  it('marks a bash call that exited non-zero as an error, with its exit code', () => {
    const results = opencode.transcript(fixture('failed-command.jsonl')).filter((e) => e.kind === 'tool-result');
    expect(results).toEqual([
      { kind: 'tool-result', tool: 'bash', output: 'cat: /workspace/no-such-notes.txt: No such file or directory\n(exit code 1)', isError: true },
      { kind: 'tool-result', tool: 'bash', output: 'README.md\npackage.json\nsrc\ntest\n', isError: false },
    ]);
  });

  it('tells a failed session as its error event', () => {
    expect(opencode.transcript(fixture('failure.jsonl'))).toEqual([
      { kind: 'error', message: 'Internal Server Error: {"error":{"type":"api_error","message":"stub failure 500","code":500}}' },
    ]);
  });
});
