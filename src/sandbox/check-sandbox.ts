import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Controls } from '../suite/index.js';
import { probeVersion } from '../util/index.js';
import { cgroupVersion } from './cgroups.js';
import { createIsolation } from './isolation.js';
import { DEFAULT_SANDBOX } from './registry.js';
import type { Sandbox } from './types.js';
import { createWorkspace, disposeScratch, freshScratchRoot } from './workspace.js';

/** One line of `bakeoff doctor`. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  /** What to do when it is not ok. */
  readonly fix?: string;
}


const defaultSandbox = async (): Promise<Sandbox> => (await createIsolation({ controls: Controls.parse({}), backend: DEFAULT_SANDBOX, sweep: false })).sandbox;

/**
 * Checks what the sandbox needs, one by one, ending with a real command in the sandbox that
 * `makeSandbox` builds (called only when every earlier check passed).
 */
export async function checkSandbox(makeSandbox: () => Promise<Sandbox> = defaultSandbox): Promise<Check[]> {
  const checks: Check[] = [];
  const isRoot = process.getuid?.() === 0;
  checks.push({ name: 'root', ok: isRoot, detail: isRoot ? 'running as root' : `running as uid ${process.getuid?.()}`, fix: 'run bakeoff as root (it mounts overlays and creates cgroups, then drops every sandboxed process to an unprivileged uid)' });
  const bwrap = await probeVersion('bwrap');
  checks.push({ name: 'bubblewrap', ok: bwrap !== null, detail: bwrap ?? 'not found', fix: 'apt-get install bubblewrap' });
  const setpriv = await probeVersion('setpriv');
  checks.push({ name: 'setpriv', ok: setpriv !== null, detail: setpriv ?? 'not found', fix: 'apt-get install util-linux' });
  const userns = await readFile('/proc/sys/user/max_user_namespaces', 'utf8').catch(() => '0');
  checks.push({ name: 'user namespaces', ok: Number(userns) > 0, detail: `max_user_namespaces = ${userns.trim()}`, fix: 'sysctl user.max_user_namespaces=15000' });
  const cg = cgroupVersion();
  checks.push({ name: 'cgroups', ok: cg !== null, detail: cg ? `cgroup v${cg}` : 'no memory/pids/cpu/freezer cgroups found', fix: 'mount the cgroup v1 controllers or cgroup v2 at /sys/fs/cgroup' });
  if (isRoot) checks.push(await checkOverlay());
  if (checks.every((c) => c.ok)) checks.push(await checkLiveSandbox(makeSandbox));
  return checks;
}

async function checkOverlay(): Promise<Check> {
  const lower = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-doctor-'));
  await writeFile(path.join(lower, 'f'), 'x');
  const scratch = path.join(await freshScratchRoot(`doctor ${process.pid}`), 'w');
  try {
    const ws = await createWorkspace(lower, scratch, { owner: null, diskBytes: 8 << 20 });
    return { name: 'workspaces', ok: true, detail: ws.mode === 'overlay' ? 'overlayfs (redirect_dir=on) on a size-limited tmpfs' : 'full copies (overlayfs could not be mounted)' };
  } catch (error) {
    return { name: 'workspaces', ok: false, detail: (error as Error).message, fix: 'bakeoff needs tmpfs and overlayfs mounts (root)' };
  } finally {
    await disposeScratch(path.dirname(scratch));
    await rm(lower, { recursive: true, force: true });
  }
}

/** Runs a command in the real sandbox and checks it is unprivileged and offline. */
async function checkLiveSandbox(makeSandbox: () => Promise<Sandbox>): Promise<Check> {
  const scratch = await freshScratchRoot(`doctor-live ${process.pid}`);
  try {
    const sandbox = await makeSandbox();
    const outputPath = path.join(scratch, 'out.log');
    const result = await sandbox.exec({
      command: 'id -u; grep CapEff /proc/self/status; cat /proc/net/dev | grep -c :',
      cwd: '/tmp',
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 20_000,
      network: 'none',
      outputPath,
      binds: [],
    });
    const out = result.outputTail;
    const ok = result.exitCode === 0 && /CapEff:\s*0+\s/.test(out) && /^1$/m.test(out.split('\n').slice(-2).join('\n'));
    return { name: 'sandbox', ok, detail: ok ? 'a sandboxed command ran with no capabilities and no network but loopback' : `sandboxed command failed (exit ${result.exitCode}): ${out.trim().slice(-300)}`, fix: 'see the checks above' };
  } catch (error) {
    return { name: 'sandbox', ok: false, detail: (error as Error).message, fix: 'see the checks above' };
  } finally {
    await disposeScratch(scratch);
  }
}
