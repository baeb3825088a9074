import { chmod, cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import { UserError } from '../errors.js';
import type { Suite, SuiteLock, Task } from '../suite/index.js';
import { canonicalJson, exists, quoteShellArg } from '../util/index.js';
import type { SuiteExporter } from './types.js';

/*
 * A suite as Harbor tasks, one folder per task:
 *
 *   <out>/<task-id>/
 *     task.toml                [task] name, [agent]/[verifier] timeouts, [environment] limits,
 *                              no network; [metadata] the suite and task hashes and the exact
 *                              task.yaml (bakeoff_manifest, JSON) so `import harbor` gets it back
 *     environment/Dockerfile   FROM a toolchain image, COPY app /app, RUN <setup>
 *     environment/app/         the task's repo/
 *     instruction.md           order 1's prompt            ┐ one order: at the top;
 *     tests/test.sh            grades the order            │ several: steps/order-<n>/ each,
 *     tests/hidden-<k>/        hidden files of order k ≤ n │ and [[steps]] in task.toml
 *     tests/expected.json      the lock's fail-to-pass / pass-to-pass ids of the order
 *     solution/solve.sh        git apply gold.patch        │
 *     solution/gold.patch                                  ┘
 *
 * test.sh first deletes any reward file in /logs/verifier (Harbor does not clear it, so an
 * agent could write its own), puts the hidden files over /app, runs the test command and
 * writes reward.txt and reward.json: 1 when the command exits 0, else 0. It grades by exit
 * status, not by bakeoff's per-test report and tripwires: bakeoff's own grading is `bakeoff run`.
 */

export interface ExportHarborOptions {
  readonly suite: Suite;
  readonly lock: SuiteLock | null;
  readonly out: string;
}

/** Toolchain images for the Dockerfile, by task language (full images: they have git). */
const IMAGES: Readonly<Record<Task['manifest']['language'], string>> = { python: 'python:3.11', js: 'node:20', ts: 'node:20', rust: 'rust:1' };

/** Writes the suite's tasks as Harbor task folders under `out` (refused when it exists); returns the folders written. */
export async function exportHarbor(options: ExportHarborOptions): Promise<string[]> {
  const { suite, out } = options;
  if (await exists(out)) throw new UserError(`--out ${out}: exists already; give a new folder (the export writes it whole)`);
  const tmp = `${out}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  try {
    for (const task of suite.tasks) await exportTask(task, options, path.join(tmp, task.id));
    await mkdir(path.dirname(out), { recursive: true });
    await rename(tmp, out);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  return suite.tasks.map((t) => path.join(out, t.id));
}

async function exportTask(task: Task, { suite, lock }: ExportHarborOptions, dir: string): Promise<void> {
  const { manifest } = task;
  const c = suite.controls;
  await cp(task.repoDir, path.join(dir, 'environment', 'app'), { recursive: true, verbatimSymlinks: true });
  const docker = [`FROM ${IMAGES[manifest.language]}`, 'COPY app /app', 'WORKDIR /app', ...(manifest.setup ? [`RUN ${manifest.setup}`] : [])];
  await writeFile(path.join(dir, 'environment', 'Dockerfile'), docker.join('\n') + '\n');
  const several = task.orders.length > 1;
  for (const order of task.orders) {
    const at = several ? path.join(dir, 'steps', `order-${order.index}`) : dir;
    await mkdir(path.join(at, 'tests'), { recursive: true });
    await writeFile(path.join(at, 'instruction.md'), order.prompt);
    for (const earlier of task.orders.filter((o) => o.index <= order.index)) {
      const target = path.join(at, 'tests', `hidden-${earlier.index}`);
      await mkdir(target, { recursive: true });
      if (earlier.hiddenFiles.length > 0) await cp(earlier.hiddenDir, target, { recursive: true, verbatimSymlinks: true });
    }
    const entry = lock?.tasks[task.id];
    const expected = entry?.admitted ? entry.orders.find((o) => o.order === order.index) : undefined;
    await writeFile(path.join(at, 'tests', 'expected.json'), JSON.stringify({ failToPass: expected?.failToPass ?? [], passToPass: expected?.passToPass ?? [] }, null, 2) + '\n');
    await writeScript(path.join(at, 'tests', 'test.sh'), testScript(task, order.index));
    await mkdir(path.join(at, 'solution'), { recursive: true });
    await writeFile(path.join(at, 'solution', 'gold.patch'), await readFile(order.goldPatchPath));
    await writeScript(path.join(at, 'solution', 'solve.sh'), '#!/bin/bash\n# the reference change of this order (bakeoff gold.patch)\nset -euo pipefail\ncd /app\ngit apply --whitespace=nowarn "$(dirname "$0")/gold.patch"\n');
  }
  const toml: Record<string, unknown> = {
    schema_version: '1.4',
    source: `bakeoff suite ${suite.id} ${suite.hash}`,
    task: { name: `${suite.id}/${task.id}`, version: '1.0.0', description: manifest.summary, keywords: [manifest.kind, manifest.language] },
    metadata: { bakeoff_suite: suite.id, bakeoff_suite_hash: suite.hash, bakeoff_task_hash: task.hash, bakeoff_manifest: canonicalJson(manifest) },
    agent: { timeout_sec: c.sessionWallClockSec },
    verifier: { timeout_sec: c.testWallClockSec },
    environment: { build_timeout_sec: c.setupWallClockSec, cpus: c.cpus, memory_mb: c.memoryMb, storage_mb: c.diskMb, network_mode: 'no-network' },
    ...(several ? { multi_step_reward_strategy: 'final', steps: task.orders.map((o) => ({ name: `order-${o.index}`, min_reward: 1 })) } : {}),
  };
  await writeFile(path.join(dir, 'task.toml'), stringifyToml(toml) + '\n');
}

function testScript(task: Task, order: number): string {
  const hidden = task.orders.filter((o) => o.index <= order).map((o) => `cp -a "$TESTS/hidden-${o.index}/." /app/`);
  return [
    '#!/bin/bash',
    `# bakeoff export: grades order ${order} of task ${task.id} by the test command's exit status`,
    'set -u',
    'TESTS="$(cd "$(dirname "$0")" && pwd)"',
    '# a reward file already there is the agent\'s, never the verdict',
    'rm -f /logs/verifier/reward.txt /logs/verifier/reward.json',
    'mkdir -p /logs/verifier',
    ...hidden,
    'cd /app',
    `bash -c ${quoteShellArg(task.manifest.test.command)}`,
    'status=$?',
    'reward=0; [ "$status" -eq 0 ] && reward=1',
    'echo "$reward" > /logs/verifier/reward.txt',
    'printf \'{"reward": %s, "exit_code": %s}\\n\' "$reward" "$status" > /logs/verifier/reward.json',
    '',
  ].join('\n');
}

async function writeScript(file: string, text: string): Promise<void> {
  await writeFile(file, text);
  await chmod(file, 0o755);
}

/** `export harbor` in the registry. */
export const harborExporter: SuiteExporter = {
  from: 'suite',
  writes: 'Harbor task folders (task.toml, environment/Dockerfile, tests/test.sh, solution/), one per task',
  exportSuite: (request) => exportHarbor(request),
};
