import { describe, expect, it } from 'vitest';
import { capturedStream, failedCommandResults, scriptedGoldTranscript } from '../captured-streams.test-support.js';
import { opencode } from './index.js';

const fixture = (file: string): string => capturedStream('opencode', file);

describe('transcript on streams captured from opencode 1.18.33', () => {
  it('tells a gold session as texts, each tool call with its input and output, and the final answer', () => {
    expect(opencode.transcript(fixture('scripted-gold.jsonl'))).toEqual(scriptedGoldTranscript([
      { tool: 'write', input: 'filePath: /workspace/NOTES.md\ncontent:\n  # Notes\n  \n  add() now adds.', output: 'Wrote file successfully.' },
      { tool: 'bash', input: "command: rm '/workspace/README.md'", output: '(no output)' },
      { tool: 'edit', input: 'filePath: /workspace/src/math.mjs\noldString:\n    return a - b;\nnewString:\n    return a + b;', output: 'Edit applied successfully.' },
    ]));
  });

  it('marks a bash call that exited non-zero as an error, with its exit code', () => {
    const results = opencode.transcript(fixture('failed-command.jsonl')).filter((e) => e.kind === 'tool-result');
    expect(results).toEqual(failedCommandResults('bash', ['cat: /workspace/no-such-notes.txt: No such file or directory\n(exit code 1)', 'README.md\npackage.json\nsrc\ntest\n']));
  });

  it('tells a failed session as its error event', () => {
    expect(opencode.transcript(fixture('failure.jsonl'))).toEqual([
      { kind: 'error', message: 'Internal Server Error: {"error":{"type":"api_error","message":"stub failure 500","code":500}}' },
    ]);
  });
});
