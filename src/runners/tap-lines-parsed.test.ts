import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Parser } from 'tap-parser';
import { describe, expect, it } from 'vitest';
import { parseTapOutput } from './parse-tap-output.js';
import { tapLinesParsed } from './tap-lines-parsed.js';

const REPORTS = fileURLToPath(new URL('../../test/fixtures/reports/', import.meta.url));

/** Every event tap-parser emits at every level but `line` and `extra` (which the filter drops), in order, and the final results. */
function events(text: string): unknown[] {
  const seen: unknown[] = [];
  const watch = (parser: Parser, depth: number): void => {
    const emit = parser.emit.bind(parser);
    parser.emit = (event: string | symbol, ...args: unknown[]): boolean => {
      if (event !== 'line' && event !== 'extra') seen.push([depth, event, JSON.parse(JSON.stringify(args, (k, v: unknown) => (k === 'parent' || k === 'root' || v instanceof Parser ? undefined : v)) ?? 'null')]);
      if (event === 'child') watch(args[0] as Parser, depth + 1);
      return emit(event, ...args);
    };
  };
  const parser = new Parser();
  watch(parser, 0);
  parser.end(text);
  return seen;
}

const NOISE = ['battery output flood', 'okay then', 'ok-not a point', '1..x', 'Bail out', 'TAP versions', '\u00a0nbsp first'];

/** `text` with a noise line after one of its lines, for every line in turn (or `most` lines spread over it). */
function spliced(text: string, noise: string, most = Infinity): string[] {
  const lines = text.split('\n');
  const step = Math.max(1, Math.ceil(lines.length / most));
  return lines.flatMap((_, at) => (at % step === 0 ? [[...lines.slice(0, at + 1), noise, ...lines.slice(at + 1)].join('\n')] : []));
}

const STREAMS: Record<string, string> = {
  tape: 'TAP version 13\n# limits\nok 1 should be equal\nnot ok 2 should be equal\n  ---\n    operator: equal\n    expected: 0\n  ...\n# keeps\nok 3 ok\n\n1..3\n# tests 3\n',
  subtests: 'TAP version 14\n# Subtest: a\n    ok 1 - inner\n    not ok 2 - inner two\n      ---\n      at: x\n      ...\n    1..2\nnot ok 1 - a\n  ---\n  duration_ms: 3\n  ...\nok 2 - b {\n    ok 1 - c\n    1..1\n}\n1..2\n',
  bailout: 'TAP version 13\nok 1 a\nBail out! gone\nok 2 b\n1..2\n',
  crlf: 'TAP version 13\r\nok 1 a\r\n# name\r\nnot ok 2 b\r\n1..2\r\n',
  strict: 'TAP version 13\nok 1 a\npragma +strict\nok 2 b\n1..2\n',
  unterminated: 'TAP version 13\nok 1 a\n1..1',
  breaks: 'TAP version 13\nok 1 a\nx\u2028y\nnoise\nok 2 b\nc\rd\n1..2\n',
};

describe('tapLinesParsed', () => {
  it.each(Object.keys(STREAMS))('leaves every event and result of tap-parser as it was, with a noise line anywhere in a %s stream', (name) => {
    for (const noise of NOISE) {
      for (const text of spliced(STREAMS[name]!, noise)) expect(events(tapLinesParsed(text)), JSON.stringify(text)).toEqual(events(text));
    }
  });

  it.each(['tap-tape', 'tap-node-tap', 'tap-node-test'])('leaves the %s golden report as tap-parser reads it, noise spliced in anywhere', async (sample) => {
    const text = await readFile(`${REPORTS}${sample}/report/tap.out`, 'utf8');
    for (const t of spliced(text, 'battery output flood', 20)) expect(events(tapLinesParsed(t))).toEqual(events(t));
  });

  it('drops the noise tap-parser does nothing with, and keeps what it splits or reads otherwise (and what only may be TAP)', () => {
    const kept = ['TAP version 13', '# a', 'ok 1 a', '  indented noise', '\tnoise', '{', '}', '', 'okay then', 'a\rb', 'a\u2028b', 'Pragma +strict', 'noise after a pragma', '1..1'];
    expect(tapLinesParsed(['noise', ...kept.slice(0, 11), 'more noise\r', ...kept.slice(11)].join('\n'))).toBe(kept.join('\n'));
    // after a line break tap-parser does not split at, a line is not whole: kept (the stream's lines stay the same lines)
    expect(tapLinesParsed('x\u2028noise\nTAP version 13\n')).toBe('x\u2028noise\nTAP version 13\n');
    expect(tapLinesParsed('TAP version 13\nok 1 a\n1..1\nno newline at the end')).toBe('TAP version 13\nok 1 a\n1..1\nno newline at the end');
  });

  it('gives the same results with a flood of noise after the stream as without it', () => {
    const stream = 'TAP version 13\n# limits\nok 1 should be equal\nnot ok 2 should be equal\n1..2\n';
    const flood = 'battery output flood\n'.repeat(100_000);
    expect(tapLinesParsed(stream + flood)).toBe(stream);
    expect(parseTapOutput(stream + flood, { isFile: () => false })).toEqual(parseTapOutput(stream, { isFile: () => false }));
  });
});
