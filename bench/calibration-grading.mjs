// Grading time of one calibration project at level 3: both orders' generated checks against the
// gold, each check in a fresh QuickJS context (generation by the Python reference model timed
// apart). Usage: npm run build && node bench/calibration-grading.mjs [project]
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSuite } from '../dist/suite/load-suite.js';
import { applyPatch } from '../dist/sandbox/git.js';
import { initSingleCommit } from '../dist/sandbox/git.js';
import { generateChecks } from '../dist/run/generate-checks.js';
import { loadSources } from '../dist/grade/checks/load-sources.js';
import { runChecks } from '../dist/grade/checks/run-checks.js';

const project = process.argv[2] ?? 'event-ledger';
const suite = await loadSuite(path.resolve(import.meta.dirname, '../examples/calibration'));
const task = suite.tasks.find((t) => t.id === project);
const ws = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-calib-'));
cpSync(task.repoDir, ws, { recursive: true });
await initSingleCommit(ws, 'bench');
for (const o of task.orders) await applyPatch(ws, readFileSync(o.goldPatchPath, 'utf8'));
const { files } = await loadSources(ws, task.manifest.checks.sourceDir);
let total = 0;
for (const order of task.orders) {
  let t = performance.now();
  const { checks } = await generateChecks(order.hiddenDir, suite.controls.seeds[0], 3);
  const genMs = performance.now() - t;
  t = performance.now();
  const results = await runChecks({ files, entry: task.manifest.checks.entry, checks });
  const gradeMs = performance.now() - t;
  total += gradeMs;
  const passed = results.filter((r) => r.passed).length;
  console.log(`${project} order ${order.index}, level 3: ${passed}/${checks.length} checks in ${gradeMs.toFixed(0)} ms (generation ${genMs.toFixed(0)} ms)`);
}
console.log(`${project} at level 3: ${total.toFixed(0)} ms of check grading for ${task.orders.length} orders`);
rmSync(ws, { recursive: true, force: true });
