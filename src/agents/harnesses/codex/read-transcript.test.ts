import { describe, expect, it } from 'vitest';
import { capturedStream } from '../captured-streams.test-support.js';
import type { TranscriptEntry } from '../transcript.js';
import { codex } from './index.js';

const reader = await codex.stream();

const fixture = (file: string): string => capturedStream('codex', file);

/** A Codex tool item as the transcript tells it: a call whose summary is its whole input, then its result. */
const item = (tool: string, input: string, output: string, isError = false): TranscriptEntry[] => [
  { kind: 'tool-call', tool, summary: input, input },
  { kind: 'tool-result', tool, output, isError },
];

describe('transcript on streams captured from codex 0.171.0', () => {
  it('tells a gold session\'s apply_patch edits as file changes (paths and kinds: all the stream says) and the final answer', () => {
    expect(reader.transcript(fixture('scripted-gold.jsonl'))).toEqual([
      ...item('file_change', 'add /workspace/NOTES.md', 'completed'),
      ...item('file_change', 'delete /workspace/README.md', 'completed'),
      ...item('file_change', 'update /workspace/src/math.mjs', 'completed'),
      { kind: 'final', text: 'Done: created NOTES.md, deleted README.md, updated src/math.mjs.' },
    ]);
  });

  it('tells commands with their output, a failed one with its exit code', () => {
    expect(reader.transcript(fixture('failed-command.jsonl'))).toEqual([
      ...item('command_execution', "/bin/bash -lc 'cat /workspace/no-such-notes.txt'", 'cat: /workspace/no-such-notes.txt: No such file or directory\n(exit code 1)', true),
      ...item('command_execution', "/bin/bash -lc 'ls /workspace'", 'README.md\npackage.json\nsrc\ntest\n'),
      { kind: 'final', text: 'There are no notes; I leave the code as it is.' },
    ]);
  });

  it('keeps the warning item of an unknown model and the reconnect notices of a failed turn as errors', () => {
    expect(reader.transcript(fixture('unknown-model.jsonl'))[0]).toEqual({ kind: 'error', message: expect.stringMatching(/^Model metadata for `stub-model` not found/) });
    const failed = reader.transcript(fixture('failure.jsonl'));
    expect(failed.map((e) => (e.kind === 'error' ? e.message.slice(0, 17) : e.kind))).toEqual([
      'Reconnecting... 1', 'Reconnecting... 2', 'Reconnecting... 3', 'Reconnecting... 4', 'Reconnecting... 5', 'We’re currently e',
    ]);
  });
});
