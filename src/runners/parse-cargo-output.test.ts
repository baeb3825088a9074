import { describe, expect, it } from 'vitest';
import { parseCargoOutput, stableDoctestIds } from './parse-cargo-output.js';

const suite = (passed: number, failed: number, ignored: number) =>
  JSON.stringify({ type: 'suite', event: failed > 0 ? 'failed' : 'ok', passed, failed, ignored, measured: 0, filtered_out: 0 });
const test = (name: string, event: string) => `{ "type": "test", "name": "${name}", "event": "${event}" }`;
/** What one test binary prints: the line cargo announces it with, its results, and the summary that counts them. */
const binary = (announced: string, ...results: readonly [name: string, event: 'ok' | 'failed' | 'ignored'][]): string[] => {
  const count = (event: string) => results.filter(([, e]) => e === event).length;
  return [announced, ...results.map(([name, event]) => test(name, event)), suite(count('ok'), count('failed'), count('ignored'))];
};

describe('parseCargoOutput', () => {
  it('labels tests by the binary cargo announced before them', () => {
    const text = [
      '   Compiling app v0.1.0 (/repo)',
      ...binary('     Running unittests src/lib.rs (target/debug/deps/app-1a2b)', ['tests::a', 'ok']),
      ...binary('     Running unittests src/main.rs (target/debug/deps/app-3c4d)', ['tests::a', 'ok']),
      ...binary('     Running tests/api.rs (target/debug/deps/api-5e6f)', ['get_ok', 'failed']),
      ...binary('   Doc-tests app', ['src/lib.rs - f (line 3)', 'ignored']),
    ].join('\n');
    expect(parseCargoOutput(text)).toEqual({
      tests: [
        { id: 'lib::tests::a', status: 'pass' },
        { id: 'src/main.rs::tests::a', status: 'pass' },
        { id: 'tests/api.rs::get_ok', status: 'fail' },
        { id: 'doc::src/lib.rs - f', status: 'skip' },
      ],
      problems: [],
    });
  });

  it('reads lines that carry terminal colours', () => {
    const running = '\u001b[1m\u001b[92m     Running\u001b[0m tests/api.rs (target/debug/deps/api-5e6f)';
    const text = binary(running, ['t', 'ok']).join('\n');
    expect(parseCargoOutput(text).tests).toEqual([{ id: 'tests/api.rs::t', status: 'pass' }]);
  });

  it('keeps the panic message of a failed test', () => {
    const stdout = "\nthread 'tests::b' (12) panicked at src/lib.rs:7:9:\nassertion failed: x\nnote: run with RUST_BACKTRACE=1";
    const failed = JSON.stringify({ type: 'test', name: 'tests::b', event: 'failed', stdout });
    const text = ['Running unittests src/lib.rs (target/debug/deps/app-1a2b)', failed, suite(0, 1, 0)].join('\n');
    expect(parseCargoOutput(text).tests).toEqual([{ id: 'lib::tests::b', status: 'fail', message: 'assertion failed: x' }]);
  });

  it('reports a problem when a binary reports more results than its summary counts', () => {
    const running = 'Running tests/api.rs (target/debug/deps/api-5e6f)';
    const text = [running, test('real', 'failed'), test('invented', 'ok'), suite(0, 1, 0)].join('\n');
    const report = parseCargoOutput(text);
    expect(report.tests).toContainEqual({ id: 'tests/api.rs::invented', status: 'pass' });
    expect(report.problems).toEqual([
      'cargo test binary tests/api.rs: its summary says 0 passed, 1 failed, 0 ignored ' +
        'but 1 ok, 1 failed, 0 ignored results were reported',
    ]);
  });

  it('reports a problem when a binary prints two summaries', () => {
    const running = 'Running tests/api.rs (target/debug/deps/api-5e6f)';
    const text = [running, test('t', 'ok'), suite(1, 0, 0), suite(1, 0, 0)].join('\n');
    expect(parseCargoOutput(text).problems).toEqual(['cargo test binary tests/api.rs printed 2 summary lines']);
  });

  it('reports a problem for results that no "Running" line introduced', () => {
    const report = parseCargoOutput([test('t', 'ok'), suite(1, 0, 0)].join('\n'));
    expect(report.tests).toEqual([{ id: 'unknown::t', status: 'pass' }]);
    expect(report.problems).toEqual(['cargo output has test results before any "Running" line']);
  });

  it('ignores compiler output and lines that only look like JSON', () => {
    const lines = ['warning: unused variable', '{ not json', '{"type":"bench","name":"b"}', 'Running tests/a.rs (x)'];
    const text = [...lines, suite(0, 0, 0)].join('\n');
    expect(parseCargoOutput(text)).toEqual({ tests: [], problems: [] });
  });
});

describe('stableDoctestIds', () => {
  it('drops line numbers, so a fix that moves every doctest keeps their ids, and numbers an item\'s doctests in line order', () => {
    const before = stableDoctestIds([
      { id: 'doc::src/stream.rs - stream::Stream<\'a>::advance (line 151)', status: 'pass' },
      { id: 'doc::src/stream.rs - stream::Stream<\'a>::advance (line 9)', status: 'pass' },
      { id: 'doc::src/lib.rs - wrap (line 5) - compile fail', status: 'pass' },
      { id: 'lib::tests::parses', status: 'pass' },
    ]);
    const after = stableDoctestIds([
      { id: 'doc::src/stream.rs - stream::Stream<\'a>::advance (line 152)', status: 'pass' },
      { id: 'doc::src/stream.rs - stream::Stream<\'a>::advance (line 10)', status: 'pass' },
      { id: 'doc::src/lib.rs - wrap (line 6) - compile fail', status: 'pass' },
      { id: 'lib::tests::parses', status: 'pass' },
    ]);
    expect(before.map((r) => r.id)).toEqual([
      "doc::src/stream.rs - stream::Stream<'a>::advance #2",
      "doc::src/stream.rs - stream::Stream<'a>::advance #1",
      'doc::src/lib.rs - wrap - compile fail',
      'lib::tests::parses',
    ]);
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
  });
});
