import { describe, expect, it } from 'vitest';
import { runChecks } from './run-checks.js';
import type { CheckResult } from './types.js';

// Each case runs one hostile check and then a normal one in the same runChecks call: the
// hostile check must end as its defined failure within its limit, and the next check must run
// in a fresh context and pass.
const OK = 'export const ok = (x) => x + 1;\n';

async function hostile(source: string, extraFiles: Record<string, string> = {}): Promise<{ bad: CheckResult; after: CheckResult }> {
  const files = { 'src/index.js': `${OK}${source}`, ...extraFiles };
  const [bad, after] = await runChecks({
    files,
    entry: 'src/index.js',
    checks: [
      { id: 'bad', call: 'bad', input: null, expected: 1 },
      { id: 'after', call: 'ok', input: 1, expected: 2 },
    ],
  });
  return { bad: bad!, after: after! };
}

describe('runChecks with hostile code', () => {
  it('stops an infinite loop at its 500 ms of CPU time as a timeout', async () => {
    const { bad, after } = await hostile('export function bad() { for (;;) {} }\n');
    expect(bad).toMatchObject({
      failure: 'timeout',
      message: expect.stringMatching(/^the check used more than its 500 ms of CPU time: \d+ ms of CPU time in \d+ ms of wall time \(InternalError: interrupted at bad \(src\/index\.js:2:\d+\)\)$/),
    });
    expect(bad.cpuMs).toBeGreaterThanOrEqual(500);
    expect(bad.cpuMs).toBeLessThan(530);
    expect(after.passed).toBe(true);
  });

  it('stops an infinite loop at module top level as a timeout', async () => {
    const { bad, after } = await hostile('', { 'src/index.js': `${OK}export const bad = () => 1;\nwhile (true) {}\n` });
    expect(bad).toMatchObject({ failure: 'timeout', message: expect.stringContaining('InternalError: interrupted') });
    expect(after).toMatchObject({ failure: 'timeout' });
  });

  it('stops catastrophic regex backtracking as a timeout', async () => {
    const { bad, after } = await hostile("export function bad() { return /(a+)+$/.test('a'.repeat(40) + 'b'); }\n");
    expect(bad).toMatchObject({ failure: 'timeout', message: expect.stringMatching(/^the check used more than its 500 ms of CPU time: .* \(InternalError: interrupted at exec \(native\)\)$/) });
    expect(bad.cpuMs).toBeLessThan(530);
    expect(after.passed).toBe(true);
  });

  it('stops an endless promise chain as a timeout, not as an error of its own', async () => {
    const { bad, after } = await hostile('export async function bad() { for (;;) await null; }\n');
    expect(bad).toMatchObject({ failure: 'timeout', message: expect.stringMatching(/^the check used more than its 500 ms of CPU time/) });
    expect(bad.cpuMs).toBeLessThan(530);
    expect(after.passed).toBe(true);
  });

  it('fails a memory bomb with memory', async () => {
    const { bad, after } = await hostile('export function bad() { return new Array(2e7).fill(0).length; }\n');
    expect(bad).toMatchObject({ failure: 'memory', message: expect.stringMatching(/^the check ran out of its 33554432 bytes of memory \(InternalError: out of memory at bad \(src\/index\.js:2:\d+\)\)$/) });
    expect(after.passed).toBe(true);
  });

  it('fails a doubling string with memory (QuickJS says "string too long")', async () => {
    const { bad, after } = await hostile("export function bad() { let s = 'x'; for (;;) s += s; }\n");
    expect(bad).toMatchObject({ failure: 'memory', message: expect.stringContaining('InternalError: string too long') });
    expect(after.passed).toBe(true);
  });

  it('fails deep recursion with stack', async () => {
    const { bad, after } = await hostile('export function bad(n) { return bad(n + 1) + 1; }\n');
    expect(bad).toMatchObject({ failure: 'stack', message: expect.stringMatching(/^the check overflowed its 1048576 bytes of stack \(InternalError: stack overflow at bad \(src\/index\.js:2:\d+\)\)$/) });
    expect(after.passed).toBe(true);
  });

  it('fails a 30 MB result with memory: the 30 MiB string fits in 32 MiB, but JSON.stringify cannot copy it', async () => {
    const { bad, after } = await hostile("export function bad() { return 'x'.repeat(30 * 1024 * 1024); }\n");
    // The error is raised in the glue's JSON.stringify (<bakeoff-glue>), inside the VM's limit.
    expect(bad).toMatchObject({ failure: 'memory', message: expect.stringMatching(/InternalError: out of memory at call \(<bakeoff-glue>:\d+/) });
    expect(after.passed).toBe(true);
  });

  it('fails a 2 MB result, which fits in memory, with result-too-large', async () => {
    const { bad, after } = await hostile("export function bad() { return 'x'.repeat(2 * 1024 * 1024); }\n");
    expect(bad).toMatchObject({ failure: 'result-too-large', message: 'the result is 2097154 bytes of JSON, over the limit of 1048576 bytes' });
    expect(after.passed).toBe(true);
  });

  it('fails a syntax error with load-error naming the file and line, for every check', async () => {
    const { bad, after } = await hostile('export function bad() { return 1 +; }\n');
    expect(bad).toMatchObject({ failure: 'load-error', message: "the program failed to load: SyntaxError: unexpected token in expression: ';' at src/index.js:2" });
    expect(after).toMatchObject({ failure: 'load-error' });
  });

  it('fails a syntax error in an imported file with load-error', async () => {
    const { bad } = await hostile("import './broken.js';\nexport const bad = () => 1;\n", { 'src/broken.js': 'let = ;\n' });
    expect(bad).toMatchObject({ failure: 'load-error', message: expect.stringMatching(/^the program failed to load: SyntaxError: .* at src\/broken\.js:1$/) });
  });

  it('refuses Node built-ins and packages with load-error', async () => {
    for (const specifier of ['fs', 'node:fs', 'lodash', '/etc/passwd']) {
      const { bad, after } = await hostile(`import x from '${specifier}';\nexport const bad = () => 1;\n`);
      expect(bad).toMatchObject({
        failure: 'load-error',
        message: `the program failed to load: Error: import "${specifier}" in src/index.js refused: only relative imports of the program's own files are allowed (no packages, no Node built-ins, no absolute paths)`,
      });
      expect(after.failure).toBe('load-error');
    }
  });

  it('refuses imports leaving the repository or naming files that are not in the program', async () => {
    const outside = await hostile("import x from '../../etc/passwd';\nexport const bad = () => 1;\n");
    expect(outside.bad.message).toBe('the program failed to load: Error: import "../../etc/passwd" in src/index.js refused: it points outside the repository');
    // loadSources reads only .js and .mjs files, so a JSON file or an extension-less name is not found.
    const missing = await hostile("import data from './data.json';\nexport const bad = () => data;\n");
    expect(missing.bad).toMatchObject({
      failure: 'load-error',
      message: 'the program failed to load: Error: module not found: "./data.json" imported from src/index.js (resolved to src/data.json; only the program\'s .js/.mjs files can be imported)',
    });
    const extensionless = await hostile("import { x } from './lib';\nexport const bad = () => x;\n", { 'src/lib.js': 'export const x = 1;\n' });
    expect(extensionless.bad.message).toContain('module not found: "./lib" imported from src/index.js');
  });

  it('fails a refused dynamic import at run time with code-error', async () => {
    const { bad, after } = await hostile("export const bad = async () => (await import('fs')).readFileSync('/etc/passwd', 'utf8');\n");
    expect(bad).toMatchObject({ failure: 'code-error', message: expect.stringContaining('import "fs" in src/index.js refused') });
    expect(after.passed).toBe(true);
  });

  it('fails a missing export in an import with load-error', async () => {
    const { bad } = await hostile("import { nope } from './lib.js';\nexport const bad = () => nope;\n", { 'src/lib.js': 'export const yes = 1;\n' });
    expect(bad).toMatchObject({ failure: 'load-error', message: "the program failed to load: SyntaxError: Could not find export 'nope' in module 'src/lib.js'" });
  });

  it('keeps the message of a huge or unprintable thrown value short', async () => {
    const huge = await hostile("export function bad() { throw new Error('x'.repeat(5e6)); }\n");
    expect(huge.bad).toMatchObject({ failure: 'code-error', message: expect.stringMatching(/^Error: x{493}… \(50000\d\d chars\)$/) });
    const proxy = await hostile("export function bad() { throw new Proxy({}, { get() { throw new Error('trap'); } }); }\n");
    expect(proxy.bad).toMatchObject({ failure: 'code-error', message: 'uncaught value: (empty)' });
    expect(proxy.after.passed).toBe(true);
  });

  it('fails a result JSON cannot represent with code-error', async () => {
    const { bad, after } = await hostile('export function bad() { const a = {}; a.self = a; return a; }\n');
    expect(bad).toMatchObject({ failure: 'code-error', message: 'TypeError: circular reference at stringify (native)' });
    expect(after.passed).toBe(true);
  });

  it('fails an exception at module top level with code-error, not load-error', async () => {
    const { bad } = await hostile("export const bad = () => 1;\nthrow new Error('top level');\n");
    expect(bad).toMatchObject({ failure: 'code-error', message: 'Error: top level at <anonymous> (src/index.js:3:16)' });
  });
});

describe('runChecks host backstop', () => {
  it('ends an allocation loop that outruns the interrupt handler by the CPU limit (in the VM or at the host backstop, cpuMs + 1500 ms), or by memory if that comes first', async () => {
    // Each push is native work (fill, GC) the interrupt handler cannot see; on the 1.1-core VM
    // this ran 3.6–4.4 s to "out of memory" without the backstop.
    const { bad, after } = await hostile('export function bad() { const xs = []; for (;;) xs.push(new Array(100000).fill(1.5)); }\n');
    expect(['timeout', 'memory']).toContain(bad.failure);
    if (bad.failure === 'timeout') expect(bad.message).toMatch(/^the check used (more than its 500 ms of CPU time|\d+ ms of CPU time, past the host's CPU backstop of 2000 ms)/);
    expect(bad.cpuMs).toBeLessThan(2600);
    expect(after.passed).toBe(true);
  });
});
