// Generated checks per second, each in a fresh QuickJS runtime + context, through the public
// runChecks (one worker per call, WASM module loaded once per worker).
// Usage: npm run build && node bench/checks-per-second.mjs   (BENCH_ROUNDS, BENCH_CHECKS)
import { runChecks } from '../dist/grade/checks/run-checks.js';
import { median } from './median.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// 32 checks is one calibration order (one runChecks call, so one worker start); 400 shows the
// steady state.
const BATCHES = (process.env.BENCH_CHECKS ?? '32,400').split(',').map(Number);

const trivial = { 'src/index.js': 'export function add({ a, b }) { return a + b; }\n' };

/**
 * 24 files, ~116 KiB of dense code (851 small functions): the entry imports 23 modules. Each
 * check compiles all of it again in its fresh context; compiling dominates its time.
 */
function bigProgram() {
  const files = {};
  const names = [];
  for (let i = 1; i < 24; i++) {
    let source = `import { clamp } from './util-0.js';\n`;
    if (i === 1) source = '';
    for (let j = 0; j < 37; j++) {
      source += `export function m${i}_${j}(xs) { let total = 0; for (let k = 0; k < xs.length; k++) { total += (xs[k] * ${j + 1}) % ${i + 7}; } return ${i === 1 ? 'total' : 'clamp(total)'}; }\n`;
    }
    if (i === 1) source += 'export const clamp = (n) => Math.max(-1e9, Math.min(1e9, n));\n';
    const name = i === 1 ? 'util-0.js' : `part-${i}.js`;
    files[`src/${name}`] = source;
    names.push([name, i]);
  }
  let entry = names.map(([name, i]) => `import * as p${i} from './${name}';`).join('\n');
  entry += `\nconst parts = [${names.map(([, i]) => `p${i}`).join(', ')}];\n`;
  entry += 'export function add({ a, b }) { let s = 0; for (const p of parts) s += Object.keys(p).length; return a + b + (s > 0 ? 0 : 1); }\n';
  entry += `// ${'padding '.repeat(420)}\n`;
  files['src/index.js'] = entry;
  return files;
}

async function measure(label, files, count) {
  const bytes = Object.values(files).reduce((n, s) => n + Buffer.byteLength(s), 0);
  const checks = Array.from({ length: count }, (_, i) => ({ id: `c${i}`, call: 'add', input: { a: i, b: 1 }, expected: i + 1 }));
  const rates = [];
  const perCheck = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const results = await runChecks({ files, entry: 'src/index.js', checks });
    const elapsed = performance.now() - started;
    const failed = results.filter((r) => !r.passed);
    if (failed.length) throw new Error(`${label}: ${failed.length} checks failed, e.g. ${JSON.stringify(failed[0])}`);
    rates.push((count / elapsed) * 1000);
    perCheck.push(median(results.map((r) => r.durationMs)));
  }
  console.log(
    `${label.padEnd(24)} ${String(Object.keys(files).length).padStart(2)} files ${(bytes / 1024).toFixed(1).padStart(6)} KiB  ${String(count).padStart(4)} checks/call  ` +
      `${median(rates).toFixed(0).padStart(5)} checks/s (min ${Math.min(...rates).toFixed(0)}, max ${Math.max(...rates).toFixed(0)})  ` +
      `median check ${median(perCheck).toFixed(2)} ms`,
  );
}

console.log(`checks per second through runChecks, median of ${ROUNDS} rounds (worker start and WASM load included; "median check" is one check in the VM)`);
const big = bigProgram();
for (const count of BATCHES) {
  await measure('trivial 1-file module', trivial, count);
  await measure('24-file program', big, count);
}
