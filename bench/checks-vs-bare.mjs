// Generated checks per second through the product's check runner (runChecks: source limits,
// a pooled worker thread, the per-check CPU budget and host backstop, judging), against bare
// QuickJS in a loop on this thread (the same engine module, a fresh runtime and context per
// check, the program loaded and called — nothing else), measured in the same run, alternating.
// 32 checks per call is one calibration order. Goal (issue 36): runChecks ≥ 0.9× bare.
// Usage: npm run build && node bench/checks-vs-bare.mjs   (BENCH_ROUNDS, BENCH_CHECKS)
import os from 'node:os';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { compiledQuickJS } from '../dist/grade/checks/compile-quickjs.js';
import { runChecks } from '../dist/grade/checks/run-checks.js';
import { median } from './median.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const BATCHES = (process.env.BENCH_CHECKS ?? '32,400').split(',').map(Number);

const trivial = { 'src/index.js': 'export function add({ a, b }) { return a + b; }\n' };
/** Three modules and a little work per call: closer to a calibration project than `add`. */
const small = {
  'src/index.js': "import { total } from './sum.js';\nimport { clamp } from './clamp.js';\nexport function add({ a, b }) { return clamp(total([a, b]), -1e9, 1e9); }\n",
  'src/sum.js': 'export const total = (xs) => xs.reduce((s, x) => s + x, 0);\n',
  'src/clamp.js': 'export const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));\n',
};

const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule: await compiledQuickJS() }));

/**
 * Bare QuickJS: per check a runtime with the same memory and stack limits, a context, the program's modules, the call —
 * the same isolation as the product's (a fresh runtime and context per check), and the least code that gets there: the
 * glue is evaluated directly (it was loaded through a one-line `export * from` module, a module more than needed). It has
 * no CPU limit (interrupt handler), no console, no load/run marker: those are the product's overhead being measured.
 */
function bare(files, checks) {
  const out = [];
  for (const check of checks) {
    const runtime = quickjs.newRuntime();
    runtime.setMemoryLimit(32 << 20);
    runtime.setMaxStackSize(1 << 20);
    runtime.setModuleLoader((name) => files[name], (base, requested) => (requested.startsWith('./') ? `src/${requested.slice(2)}` : requested));
    const ctx = runtime.newContext();
    const exports = ctx.unwrapResult(ctx.evalCode(`import * as e from 'src/index.js'; export const call = (n, i) => JSON.stringify(e[n](JSON.parse(i)));`, '<glue>', { type: 'module' }));
    const fn = ctx.getProp(exports, 'call');
    const name = ctx.newString(check.call);
    const input = ctx.newString(JSON.stringify(check.input));
    const result = ctx.unwrapResult(ctx.callFunction(fn, ctx.undefined, name, input));
    out.push(JSON.parse(ctx.getString(result)) === check.expected);
    for (const h of [result, input, name, fn, exports]) h.dispose();
    ctx.dispose();
    runtime.dispose();
  }
  if (!out.every(Boolean)) throw new Error('bare: a check failed');
}

async function product(files, checks) {
  const results = await runChecks({ files, entry: 'src/index.js', checks });
  const failed = results.filter((r) => !r.passed);
  if (failed.length) throw new Error(`runChecks: ${failed.length} checks failed, e.g. ${JSON.stringify(failed[0])}`);
}

console.log(`checks per second, median of ${ROUNDS} alternating rounds; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
console.log(`${'program'.padEnd(22)}${'checks/call'.padStart(12)}${'bare /s'.padStart(10)}${'runChecks /s'.padStart(14)}${'ratio'.padStart(8)}`);
for (const [label, files] of [['trivial (1 module)', trivial], ['small (3 modules)', small]]) {
  for (const count of BATCHES) {
    const checks = Array.from({ length: count }, (_, i) => ({ id: `c${i}`, call: 'add', input: { a: i, b: 1 }, expected: i + 1 }));
    await product(files, checks); // warm: the engine compiled, a worker in the pool
    bare(files, checks);
    const rates = { bare: [], product: [] };
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      bare(files, checks);
      rates.bare.push((count / (performance.now() - t)) * 1000);
      t = performance.now();
      await product(files, checks);
      rates.product.push((count / (performance.now() - t)) * 1000);
    }
    const b = median(rates.bare);
    const p = median(rates.product);
    console.log(`${label.padEnd(22)}${String(count).padStart(12)}${b.toFixed(0).padStart(10)}${p.toFixed(0).padStart(14)}${(p / b).toFixed(2).padStart(7)}×`);
  }
}
