import { describe, expect, it } from 'vitest';
import { capturedStream, failedCommandResults } from '../captured-streams.test-support.js';
import { claudeCode } from './index.js';

const reader = await claudeCode.stream();

const fixture = (file: string): string => capturedStream('claude-code', file);

describe('transcript on streams captured from claude 2.1.332', () => {
  it('tells a gold session as its texts, tool calls with their inputs, tool results and the final answer', () => {
    const entries = reader.transcript(fixture('scripted-gold.jsonl'));
    expect(entries.map((e) => e.kind)).toEqual([
      'text', 'tool-call', 'tool-result', 'text', 'tool-call', 'tool-result', 'text', 'tool-call', 'tool-result', 'text', 'tool-call', 'tool-result', 'final',
    ]);
    const calls = entries.flatMap((e) => (e.kind === 'tool-call' ? [[e.tool, e.summary]] : []));
    expect(calls).toEqual([
      ['Write', '/workspace/NOTES.md'],
      ['Bash', "rm '/workspace/README.md'"],
      ['Read', '/workspace/src/math.mjs'],
      ['Edit', '/workspace/src/math.mjs'],
    ]);
    // an edit's old and new text read as code under their keys
    expect(entries[10]).toEqual({
      kind: 'tool-call', tool: 'Edit', summary: '/workspace/src/math.mjs',
      input: 'replace_all: false\nfile_path: /workspace/src/math.mjs\nold_string:\n    return a - b;\nnew_string:\n    return a + b;',
    });
    // results name the call they answer (the stream gives only its id)
    expect(entries[8]).toEqual({ kind: 'tool-result', tool: 'Read', output: '1\t/** Adds two numbers. */\n2\texport function add(a, b) {\n3\t  return a - b;\n4\t}\n5\t', isError: false });
    expect(entries[0]).toEqual({ kind: 'text', text: 'I will create NOTES.md.' });
    expect(entries.at(-1)).toEqual({ kind: 'final', text: 'Done: created NOTES.md, deleted README.md, updated src/math.mjs.' });
  });

  it('marks the result of a command that failed as an error', () => {
    const results = reader.transcript(fixture('failed-command.jsonl')).filter((e) => e.kind === 'tool-result');
    expect(results).toEqual(failedCommandResults('Bash', ['Exit code 1\ncat: /workspace/no-such-notes.txt: No such file or directory', 'README.md\npackage.json\nsrc\ntest']));
  });

  it('tells a session that failed on API errors as its retries and the error, with no final answer', () => {
    const entries = reader.transcript(fixture('failure.jsonl'));
    expect(entries).toHaveLength(11);
    expect(entries[0]).toEqual({ kind: 'error', message: 'API request failed (500 server_error); retry 1 of 10' });
    // the made-up assistant message and the result carry the same text: one entry
    expect(entries.at(-1)).toEqual({ kind: 'error', message: expect.stringMatching(/^API Error: 500 stub failure 500\./) });
    expect(entries.every((e) => e.kind === 'error')).toBe(true);
  });
});
