// Sandbox launch cost and workspace cost (medians). Usage: npm run build && node bench/sandbox-overhead.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createIsolation } from '../dist/sandbox/isolation.js';
import { DEFAULT_SANDBOX } from '../dist/sandbox/registry.js';
import { createProcessSandbox } from '../dist/sandbox/process-sandbox.js';
import { createWorkspace, disposeScratch, scratchRoot } from '../dist/sandbox/workspace.js';
import { Controls } from '../dist/suite/schema.js';
import { median } from './median.mjs';

const N = Number(process.env.BENCH_REPEATS ?? 30);
const time = async (fn) => { const xs = []; for (let i = 0; i < N; i++) { const t = performance.now(); await fn(); xs.push(performance.now() - t); } return median(xs); };

const out = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-'));
const request = { command: 'true', cwd: '/tmp', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 10_000, network: 'none', outputPath: path.join(out, 'log'), binds: [] };
const { sandbox } = await createIsolation({ controls: Controls.parse({}), backend: DEFAULT_SANDBOX });
const unsafe = createProcessSandbox();
const plain = await time(() => spawnSync('/bin/sh', ['-c', 'true']));
const light = await time(() => unsafe.exec(request));
const full = await time(() => sandbox.exec(request));

// a workspace over a big tree: this repo's node_modules
const lower = path.resolve(import.meta.dirname, '../node_modules');
const files = spawnSync('sh', ['-c', `find '${lower}' -type f | wc -l`], { encoding: 'utf8' }).stdout.trim();
const scratch = await scratchRoot(`bench ${process.pid}`);
let i = 0;
const overlay = await time(async () => { const ws = await createWorkspace(lower, path.join(scratch, String(i++)), { owner: sandbox.owner, diskBytes: 64 << 20 }); await ws.dispose(); });
const copy = await time(async () => { const d = path.join(scratch, `c${i++}`); spawnSync('cp', ['-a', lower, d]); rmSync(d, { recursive: true, force: true }); });
await disposeScratch(scratch);
rmSync(out, { recursive: true, force: true });

console.log(`sandbox launch, \`true\` (median of ${N}):`);
console.log(`  plain sh                                   ${plain.toFixed(1)} ms`);
console.log(`  pid+net namespaces (--unsafe-no-sandbox)   ${light.toFixed(1)} ms`);
console.log(`  full sandbox (cgroups, setpriv, bwrap, sweep) ${full.toFixed(1)} ms`);
console.log(`workspace create + dispose over node_modules (${files} files):`);
console.log(`  overlayfs on a sized tmpfs                 ${overlay.toFixed(1)} ms`);
console.log(`  cp -a + rm                                 ${copy.toFixed(1)} ms`);
