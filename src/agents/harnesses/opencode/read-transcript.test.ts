import { describe, expect, it } from 'vitest';
import { capturedStream, failedCommandResults } from '../captured-streams.test-support.js';
import { opencode } from './index.js';

const reader = await opencode.stream();

const fixture = (file: string): string => capturedStream('opencode', file);

describe('transcript on streams captured from opencode 1.18.33', () => {
  it('marks a bash call that exited non-zero as an error, with its exit code', () => {
    const results = reader.transcript(fixture('failed-command.jsonl')).filter((e) => e.kind === 'tool-result');
    expect(results).toEqual(failedCommandResults('bash', ['cat: /workspace/no-such-notes.txt: No such file or directory\n(exit code 1)', 'README.md\npackage.json\nsrc\ntest\n']));
  });

  it('tells a failed session as its error event', () => {
    expect(reader.transcript(fixture('failure.jsonl'))).toEqual([
      { kind: 'error', message: 'Internal Server Error: {"error":{"type":"api_error","message":"stub failure 500","code":500}}' },
    ]);
  });
});
