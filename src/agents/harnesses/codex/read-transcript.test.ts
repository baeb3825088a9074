import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codex } from './index.js';

const fixture = (file: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../../test/fixtures/harness-streams/codex/${file}`, import.meta.url)), 'utf8');

describe('transcript on streams captured from codex 0.171.0', () => {
  it('tells a gold session\'s apply_patch edits as file changes (paths and kinds: all the stream says) and the final answer', () => {
    expect(codex.transcript(fixture('scripted-gold.jsonl'))).toEqual([
      { kind: 'tool-call', tool: 'file_change', summary: 'add /workspace/NOTES.md', input: 'add /workspace/NOTES.md' },
      { kind: 'tool-result', tool: 'file_change', output: 'completed', isError: false },
      { kind: 'tool-call', tool: 'file_change', summary: 'delete /workspace/README.md', input: 'delete /workspace/README.md' },
      { kind: 'tool-result', tool: 'file_change', output: 'completed', isError: false },
      { kind: 'tool-call', tool: 'file_change', summary: 'update /workspace/src/math.mjs', input: 'update /workspace/src/math.mjs' },
      { kind: 'tool-result', tool: 'file_change', output: 'completed', isError: false },
      { kind: 'final', text: 'Done: created NOTES.md, deleted README.md, updated src/math.mjs.' },
    ]);
  });

  it('tells commands with their output, a failed one with its exit code', () => {
    expect(codex.transcript(fixture('failed-command.jsonl'))).toEqual([
      { kind: 'tool-call', tool: 'command_execution', summary: "/bin/bash -lc 'cat /workspace/no-such-notes.txt'", input: "/bin/bash -lc 'cat /workspace/no-such-notes.txt'" },
      { kind: 'tool-result', tool: 'command_execution', output: 'cat: /workspace/no-such-notes.txt: No such file or directory\n(exit code 1)', isError: true },
      { kind: 'tool-call', tool: 'command_execution', summary: "/bin/bash -lc 'ls /workspace'", input: "/bin/bash -lc 'ls /workspace'" },
      { kind: 'tool-result', tool: 'command_execution', output: 'README.md\npackage.json\nsrc\ntest\n', isError: false },
      { kind: 'final', text: 'There are no notes; I leave the code as it is.' },
    ]);
  });

  it('keeps the warning item of an unknown model and the reconnect notices of a failed turn as errors', () => {
    expect(codex.transcript(fixture('unknown-model.jsonl'))[0]).toEqual({ kind: 'error', message: expect.stringMatching(/^Model metadata for `stub-model` not found/) });
    const failed = codex.transcript(fixture('failure.jsonl'));
    expect(failed.map((e) => (e.kind === 'error' ? e.message.slice(0, 17) : e.kind))).toEqual([
      'Reconnecting... 1', 'Reconnecting... 2', 'Reconnecting... 3', 'Reconnecting... 4', 'Reconnecting... 5', 'We’re currently e',
    ]);
  });
});
