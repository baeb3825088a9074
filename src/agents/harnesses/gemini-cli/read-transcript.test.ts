import { describe, expect, it } from 'vitest';
import { capturedStream } from '../captured-streams.test-support.js';
import { geminiCli } from './index.js';

const reader = await geminiCli.stream();

const fixture = (file: string): string => capturedStream('gemini-cli', file);

describe('transcript on streams captured from gemini 0.61.0', () => {
  it('gives a command\'s output as the CLI printed it (it calls a failed cat a success)', () => {
    const entries = reader.transcript(fixture('failed-command.jsonl'));
    expect(entries.filter((e) => e.kind === 'tool-call').map((e) => e.kind === 'tool-call' && e.summary)).toEqual(['cat /workspace/no-such-notes.txt', 'ls /workspace']);
    expect(entries[1]).toEqual({ kind: 'tool-result', tool: 'run_shell_command', output: 'cat: /workspace/no-such-notes.txt: No such file or directory', isError: false });
    expect(entries.at(-1)).toEqual({ kind: 'final', text: 'There are no notes; I leave the code as it is.' });
  });

  it('tells a session that ended with result status error as that error', () => {
    expect(reader.transcript(fixture('failure.jsonl'))).toEqual([{ kind: 'error', message: '[API Error: {"error":{"type":"api_error","message":"stub failure 500","code":500}}]' }]);
  });
});
