import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSandbox, startRaced } from './process-sandbox.js';

/*
 * The process sandbox binds `/` recursively: bwrap then re-applies every submount's flags, and a
 * mount that another process removes meanwhile (scratch folders of other runs, unmounted and
 * deleted) failed the start before the command ran — seen in the full test run as a sandbox
 * conformance failure, and reproduced here by mounting and removing folders in a loop: about
 * one start in a hundred. Setup commands run in this sandbox, so a bake beside another one on
 * the same machine could void a task's runs as setup-failed. (Root and bwrap: the e2e tier.)
 */

const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-mount-race-'));
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A shell that mounts a tmpfs on a fresh folder, unmounts it and deletes the folder, over and over, until killed. */
function churnMounts(): { stop: () => Promise<void> } {
  const loop = `i=0; while :; do i=$((i+1)); d='${root}'/m$((i%4)); mkdir -p "$d/ws"; mount -t tmpfs none "$d/ws" 2>/dev/null; umount -l "$d/ws" 2>/dev/null; rm -rf "$d"; done`;
  const child = spawn('sh', ['-c', loop], { stdio: 'ignore' });
  return { stop: () => new Promise((resolve) => { child.once('exit', () => resolve()); child.kill('SIGKILL'); }) };
}

describe('process sandbox beside mounts that come and go', () => {
  it('starts every command: a start that met a vanished mount is started again, and the log keeps why', async () => {
    const sandbox = createProcessSandbox();
    const churn = churnMounts();
    const results = [];
    try {
      for (let i = 0; i < 200; i++) {
        const outputPath = path.join(root, `out-${i}.log`);
        results.push({ outputPath, result: await sandbox.exec({ command: 'echo started', cwd: '/', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000, network: 'host', outputPath, binds: [] }) });
      }
    } finally {
      await churn.stop();
    }
    const failed = results.filter((r) => r.result.exitCode !== 0).map((r) => r.result.outputTail);
    expect(failed).toEqual([]);
    for (const { result } of results) expect(result.outputTail).toMatch(/started\n$/);
    // the race happened (else this test proves nothing): some log holds bwrap's line before the command's
    const logs = await Promise.all(results.map((r) => readFile(r.outputPath, 'utf8')));
    expect(logs.filter((l) => l.startsWith('bwrap: Can\'t bind mount')).length).toBeGreaterThan(0);
  }, 300_000);

  it('starts again only on bwrap\'s own start failure, not on a command that fails or prints the same', () => {
    const line = 'bwrap: Can\'t bind mount /oldroot/ on /newroot/: Unable to apply mount flags: remount "/newroot/tmp/bakeoff-scratch/5a2e/agent/ws": No such file or directory\n';
    expect(startRaced({ exitCode: 1, outputBytes: line.length, outputTail: line })).toBe(true);
    expect(startRaced({ exitCode: 2, outputBytes: line.length, outputTail: line })).toBe(false);
    expect(startRaced({ exitCode: 1, outputBytes: line.length + 6, outputTail: 'hello\n' + line })).toBe(false);
    expect(startRaced({ exitCode: 1, outputBytes: 5000, outputTail: line })).toBe(false);
    expect(startRaced({ exitCode: 1, outputBytes: 20, outputTail: 'bwrap: No permissions\n' })).toBe(false);
    const noLongerMounted = line.replace('No such file or directory', 'Invalid argument');
    expect(startRaced({ exitCode: 1, outputBytes: noLongerMounted.length, outputTail: noLongerMounted })).toBe(true);
  });
});
