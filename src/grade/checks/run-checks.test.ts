import { describe, expect, it } from 'vitest';
import { runChecks } from './run-checks.js';
import { DEFAULT_CHECK_LIMITS, type Check } from './types.js';

const check = (id: string, call: string, input: unknown, expected: unknown): Check => ({ id, call, input, expected });

describe('runChecks', () => {
  it('passes every check whose result deep-equals the expected value', async () => {
    const files = { 'src/index.js': 'export function add({ a, b }) { return a + b; }\nexport const upper = (s) => s.toUpperCase();\n' };
    const results = await runChecks({
      files,
      entry: 'src/index.js',
      checks: [check('c1', 'add', { a: 1, b: 2 }, 3), check('c2', 'upper', 'abc', 'ABC'), check('c3', 'add', { a: -1, b: 1 }, 0)],
    });
    expect(results.map((r) => [r.id, r.passed, r.failure])).toEqual([
      ['c1', true, undefined],
      ['c2', true, undefined],
      ['c3', true, undefined],
    ]);
    for (const r of results) expect(r.durationMs).toBeGreaterThan(0);
  });

  it('fails a wrong answer with wrong-result, recording the actual value and both values in the message', async () => {
    const files = { 'src/index.js': 'export const sort = (xs) => [...xs].reverse();\n' };
    const [result] = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'sort', [1, 3, 2], [1, 2, 3])] });
    expect(result).toMatchObject({ id: 'c1', passed: false, failure: 'wrong-result', actual: [2, 3, 1], message: 'expected [1,2,3], got [2,3,1]' });
  });

  it('records a long wrong result only as a preview of its JSON', async () => {
    const files = { 'src/index.js': 'export const many = (n) => Array.from({ length: n }, (_, i) => i);\n' };
    const [result] = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'many', 10_000, [])] });
    expect(result?.failure).toBe('wrong-result');
    expect(result?.actual).toMatch(/^\[0,1,2,3,.*… \(48891 chars of JSON\)$/);
    expect(String(result?.actual).length).toBeLessThan(260);
  });

  it('ignores object key order and compares with JSON semantics', async () => {
    const files = {
      'src/index.js': `export const obj = () => ({ b: [1, { y: 2, x: 1 }], a: 'z', skipped: undefined });
export const nothing = () => undefined;
export const nan = () => NaN;`,
    };
    const results = await runChecks({
      files,
      entry: 'src/index.js',
      checks: [check('order', 'obj', null, { a: 'z', b: [1, { x: 1, y: 2 }] }), check('undefined', 'nothing', null, null), check('nan', 'nan', null, null)],
    });
    expect(results.map((r) => [r.id, r.passed])).toEqual([
      ['order', true],
      ['undefined', false],
      ['nan', true],
    ]);
    expect(results[1]).toMatchObject({ failure: 'wrong-result', message: 'expected null, got undefined' });
  });

  it('resolves relative imports between the program files, across folders and .mjs files', async () => {
    const files = {
      'src/index.js': "import { double } from './lib/math.mjs';\nexport { double };\nexport const quad = (x) => double(double(x));\n",
      'src/lib/math.mjs': "import { ONE } from '../constants.js';\nimport { identity } from './same-dir.js';\nexport const double = (x) => identity(x * 2 * ONE);\n",
      'src/lib/same-dir.js': 'export const identity = (x) => x;\n',
      'src/constants.js': 'export const ONE = 1;\n',
    };
    const results = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'quad', 3, 12), check('c2', 'double', 5, 10)] });
    expect(results.every((r) => r.passed)).toBe(true);
  });

  it('runs with no host globals inside, and a console that does nothing', async () => {
    const files = {
      'src/index.js': `export function probe() {
  console.log('ignored'); console.error('ignored');
  return ['process', 'require', 'fetch', 'setTimeout', 'setInterval', 'module', 'Buffer', 'globalThis.__bakeoffStart']
    .map((name) => name + ':' + eval('typeof ' + name));
}`,
    };
    const [result] = await runChecks({
      files,
      entry: 'src/index.js',
      checks: [check('c1', 'probe', null, ['process:undefined', 'require:undefined', 'fetch:undefined', 'setTimeout:undefined', 'setInterval:undefined', 'module:undefined', 'Buffer:undefined', 'globalThis.__bakeoffStart:undefined'])],
    });
    expect(result).toMatchObject({ passed: true });
  });

  it('awaits an async function, and a module with top-level await', async () => {
    const files = {
      'src/index.js': "import { base } from './config.js';\nexport async function later(x) { await null; return { value: (await Promise.resolve(x)) + base }; }\n",
      'src/config.js': 'export const base = await Promise.resolve(10);\n',
    };
    const [result] = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'later', 5, { value: 15 })] });
    expect(result).toMatchObject({ passed: true });
  });

  it('fails a promise that never settles with code-error and says so, then goes on', async () => {
    const files = { 'src/index.js': 'export const never = () => new Promise(() => {});\nexport const ok = (x) => x + 1;\n' };
    const results = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'never', null, 1), check('c2', 'ok', 1, 2)] });
    expect(results[0]).toMatchObject({ passed: false, failure: 'code-error', message: expect.stringContaining('the promise returned by never() never settled') });
    // found at once when the job queue runs dry, not waited out: well inside the check's CPU limit
    // (a wall-clock figure, so not a tighter bound: a loaded machine stretches it)
    expect(results[0]?.durationMs).toBeLessThan(DEFAULT_CHECK_LIMITS.cpuMs);
    expect(results[1]).toMatchObject({ passed: true });
  });

  it('fails an exception or a rejection in the agent code with code-error and its message', async () => {
    const files = {
      'src/index.js': "export const boom = () => { throw new RangeError('bad input'); };\nexport const reject = async () => { await null; null.x; };\nexport const raw = () => { throw 'just a string'; };\n",
    };
    const results = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'boom', null, 1), check('c2', 'reject', null, 1), check('c3', 'raw', null, 1), check('c4', 'absent', null, 1)] });
    expect(results.map((r) => r.failure)).toEqual(['code-error', 'code-error', 'code-error', 'code-error']);
    expect(results[0]?.message).toBe('RangeError: bad input at boom (src/index.js:1:49)');
    expect(results[1]?.message).toMatch(/^TypeError: cannot read property 'x' of null at reject \(src\/index\.js:2/);
    expect(results[2]?.message).toBe('uncaught value: just a string');
    expect(results[3]?.message).toMatch(/^TypeError: src\/index\.js has no exported function "absent"/);
  });

  it('fails every check with load-error when the entry file is missing', async () => {
    const results = await runChecks({ files: { 'src/other.js': '' }, entry: 'src/index.js', checks: [check('c1', 'f', null, 1), check('c2', 'f', null, 1)] });
    expect(results).toEqual([
      { id: 'c1', passed: false, failure: 'load-error', message: "the entry file src/index.js is not among the program's 1 JS files", durationMs: 0 },
      { id: 'c2', passed: false, failure: 'load-error', message: "the entry file src/index.js is not among the program's 1 JS files", durationMs: 0 },
    ]);
  });

  it('fails every check with source-limit when the program has more files than allowed', async () => {
    const files: Record<string, string> = { 'src/index.js': 'export const ok = () => 1;\n' };
    for (let i = 1; i < 25; i++) files[`src/part-${i}.js`] = `export const p${i} = ${i};\n`;
    const results = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'ok', null, 1), check('c2', 'ok', null, 1)] });
    for (const r of results) {
      expect(r).toMatchObject({ passed: false, failure: 'source-limit', message: 'the program breaks the source limit: it has 25 JS files, over the limit of 24' });
    }
    delete files['src/part-24.js'];
    expect((await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'ok', null, 1)] }))[0]?.passed).toBe(true);
  });

  it('fails every check with source-limit when the sources are larger than allowed', async () => {
    const padding = `// ${'x'.repeat(129 * 1024)}\n`;
    const files = { 'src/index.js': `export const ok = () => 1;\n${padding}` };
    const bytes = Buffer.byteLength(files['src/index.js']);
    const results = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'ok', null, 1), check('c2', 'ok', null, 1)] });
    for (const r of results) {
      expect(r).toMatchObject({ failure: 'source-limit', message: `the program breaks the source limit: its JS files total ${bytes} bytes, over the limit of 131072 bytes` });
    }
  });

  it('applies overridden limits', async () => {
    const files = { 'src/index.js': 'export const spin = () => { for (;;) {} };\n' };
    const [result] = await runChecks({ files, entry: 'src/index.js', checks: [check('c1', 'spin', null, 1)], limits: { cpuMs: 100 } });
    expect(result).toMatchObject({ failure: 'timeout', message: expect.stringContaining('more than its 100 ms of CPU time') });
    expect(result?.cpuMs).toBeGreaterThanOrEqual(100);
    expect(result?.cpuMs).toBeLessThan(130);
    await expect(runChecks({ files, entry: 'src/index.js', checks: [], limits: { cpuMs: -1 } })).rejects.toThrow('limits.cpuMs must be a positive number, got -1');
  });

  it('refuses a check that names no function or whose input is not JSON, since the suite is broken then', async () => {
    const files = { 'src/index.js': 'export const f = () => 1;\n' };
    await expect(runChecks({ files, entry: 'src/index.js', checks: [check('c1', undefined as unknown as string, null, 1)] })).rejects.toThrow('check c1: call must be a non-empty string, got undefined');
    await expect(runChecks({ files, entry: 'src/index.js', checks: [check('c2', 'f', 10n, 1)] })).rejects.toThrow('check c2: input is not JSON-serialisable');
  });

  it('returns no results for no checks', async () => {
    expect(await runChecks({ files: { 'src/index.js': '' }, entry: 'src/index.js', checks: [] })).toEqual([]);
  });
});
