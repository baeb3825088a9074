import { describe, expect, it } from 'vitest';
import { capturedStream } from '../captured-streams.test-support.js';
import { pi } from './index.js';

const reader = await pi.stream();

const fixture = (file: string): string => capturedStream('pi', file);

describe('transcript on streams captured from pi 0.73.1', () => {
  it('marks the result of a command that failed as an error', () => {
    const results = reader.transcript(fixture('failed-command.jsonl')).filter((e) => e.kind === 'tool-result');
    expect(results.map((r) => r.kind === 'tool-result' && [r.tool, r.isError, r.output.split('\n')[0]])).toEqual([
      ['bash', true, 'cat: /workspace/no-such-notes.txt: No such file or directory'],
      ['bash', false, 'README.md'],
    ]);
  });

  it('tells a session whose API failed as each attempt\'s error and pi\'s retries, with no final answer', () => {
    const error = '500 {"error":{"type":"api_error","message":"stub failure 500","code":500}}';
    expect(reader.transcript(fixture('failure.jsonl'))).toEqual([
      { kind: 'error', message: error },
      { kind: 'error', message: 'retrying (attempt 1 of 3)' },
      { kind: 'error', message: error },
      { kind: 'error', message: 'retrying (attempt 2 of 3)' },
      { kind: 'error', message: error },
      { kind: 'error', message: 'retrying (attempt 3 of 3)' },
      { kind: 'error', message: error },
    ]);
  });
});
