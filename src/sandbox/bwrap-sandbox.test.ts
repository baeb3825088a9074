import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controls } from '../suite/schema.js';
import { createIsolation } from './isolation.js';
import type { ExecRequest, Sandbox } from './types.js';
import { chownTree, disposeScratch, freshScratchRoot } from './workspace.js';

// What only the bubblewrap backend does (the shared contract is in conformance.test.ts); needs root, bubblewrap and cgroups (`bakeoff doctor`).
describe('the bubblewrap sandbox', () => {
  let sandbox: Sandbox;
  let scratch: string;
  beforeAll(async () => {
    sandbox = (await createIsolation({ controls: Controls.parse({ memoryMb: 128, pids: 64 }), backend: 'bwrap' })).sandbox;
    scratch = await freshScratchRoot(`bwrap-test ${process.pid}`);
  });
  afterAll(async () => {
    await disposeScratch(scratch);
  });

  async function exec(command: string, extra: Partial<ExecRequest> = {}) {
    const outputPath = path.join(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-out-')), 'out.log');
    const result = await sandbox.exec({ command, cwd: '/tmp', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20_000, network: 'none', outputPath, binds: [], ...extra });
    return { ...result, output: await readFile(outputPath, 'utf8') };
  }

  it('runs as an unprivileged host uid with no capabilities', async () => {
    const dir = path.join(scratch, 'owned');
    await mkdir(dir);
    await chownTree([dir], sandbox.owner!);
    const r = await exec('id -u; grep -E "Cap(Eff|Prm|Bnd)" /proc/self/status; touch made-inside', { cwd: dir, binds: [{ path: dir, writable: true }] });
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toMatch(/^1000$/m);
    expect(r.output.match(/Cap\w+:\s+0{16}/g)).toHaveLength(3);
    // seen from the host, the sandbox's files belong to the unprivileged uid, not root
    expect((await stat(path.join(dir, 'made-inside'))).uid).toBe(64123);
  });

  it('reports the memory limit when the OOM killer ends a command', async () => {
    const r = await exec(`node -e "const a=[]; for(;;) a.push(Buffer.alloc(8<<20, 1))"`);
    expect(r.exitCode).not.toBe(0);
    expect(r.limitHit).toBe('memory');
  });

  it('weighs a command like one process, or like as many as the request asks (verify\'s re-check alone: decision 011)', async () => {
    /** The command's own CPU weight, read on the host (its group: `bakeoff-<pid>-<n>-<hex>`) while it waits for `go` in its folder. */
    const v1 = existsSync('/sys/fs/cgroup/cpu/cpu.shares');
    const top = v1 ? '/sys/fs/cgroup/cpu' : '/sys/fs/cgroup';
    const mine = new RegExp(`^bakeoff-${process.pid}-\\d+-[0-9a-f]{6}$`);
    const weightOf = async (cpuWeight?: number): Promise<string> => {
      const dir = await mkdtemp(path.join(scratch, 'weight-'));
      await chownTree([dir], sandbox.owner!);
      let weight = '';
      const r = await exec('echo started; while [ ! -e go ]; do sleep 0.05; done', {
        cwd: dir,
        binds: [{ path: dir, writable: true }],
        ...(cpuWeight === undefined ? {} : { cpuWeight }),
        onOutput: () => {
          if (weight !== '') return;
          const groups = readdirSync(top).filter((d) => mine.test(d));
          expect(groups).toHaveLength(1);
          weight = readFileSync(path.join(top, groups[0]!, v1 ? 'cpu.shares' : 'cpu.weight'), 'utf8').trim();
          writeFileSync(path.join(dir, 'go'), '');
        },
      });
      expect(r.exitCode, r.output).toBe(0);
      return weight;
    };
    expect(await weightOf()).toBe(v1 ? '1024' : '100');
    expect(await weightOf(100)).toBe(v1 ? '102400' : '10000');
    // at most the kernel's v2 maximum, whatever is asked
    expect(await weightOf(1000)).toBe(v1 ? '102400' : '10000');
  });
});
