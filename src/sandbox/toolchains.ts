import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { InfraError } from '../errors.js';
import { execFileWithParent } from '../util/index.js';

const run = execFileWithParent;

/** A read-only mount of a toolchain: `source` on the host appears at `target` inside. */
export interface ToolMount {
  readonly source: string;
  readonly target: string;
}

/**
 * Toolchains installed in the home folder that tasks commonly need (pyenv, rustup, cargo, nvm).
 * Of `~/.cargo` only `bin/` (the cargo and rustc proxies): its `registry/` and `git/` caches
 * hold the sources of every crate this machine ever fetched — perhaps a newer release of a
 * task's own crate — and cargo inside the sandbox has its own CARGO_HOME anyway.
 */
const HOME_TOOLCHAINS = ['.pyenv', '.cargo/bin', '.rustup', '.nvm', '.volta', '.bun', '.deno'];
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc'];

export const STAGING_DIR = '/var/lib/bakeoff/toolchains';

/**
 * Read-only toolchain mounts for a sandbox whose launcher runs as an unprivileged uid. Every
 * toolchain keeps its host path inside (shims hard-code it). One the uid cannot reach on the
 * host (under a 0700 /root, say) is first bind-mounted read-only under STAGING_DIR, once per
 * boot, so no permission on the host changes.
 */
export async function toolchainMounts(hostPath = process.env.PATH ?? ''): Promise<ToolMount[]> {
  const home = homedir();
  const wanted = new Set<string>();
  for (const name of HOME_TOOLCHAINS) {
    const dir = path.join(home, name);
    if (existsSync(dir)) wanted.add(dir);
  }
  for (const entry of hostPath.split(':').filter((p) => path.isAbsolute(p) && existsSync(p))) {
    if (SYSTEM.some((s) => entry === s || entry.startsWith(s + '/'))) continue;
    // a project's node_modules/.bin (npm run puts it on PATH) is not a toolchain
    if (entry.includes('/node_modules/')) continue;
    const inHome = entry.startsWith(home + '/') ? path.join(home, entry.slice(home.length + 1).split('/')[0]!) : undefined;
    // already inside a mounted toolchain, or in one of which only a part is mounted (~/.cargo/bin of ~/.cargo)
    if ([...wanted].some((w) => entry === w || entry.startsWith(w + '/') || (inHome !== undefined && w.startsWith(inHome + '/')))) continue;
    if (inHome && [...wanted].some((w) => inHome === w)) continue;
    wanted.add(inHome ?? entry);
  }
  const mounts: ToolMount[] = [];
  for (const target of [...wanted].sort()) {
    mounts.push({ source: reachableByOthers(target) ? target : await stage(target), target });
  }
  return mounts;
}

/**
 * Variables that tell home-folder toolchains where they live, for a sandbox whose HOME is
 * elsewhere (rustup and pyenv otherwise look under $HOME).
 */
export function toolchainEnv(mounts: readonly ToolMount[]): Record<string, string> {
  const home = homedir();
  const env: Record<string, string> = {};
  const has = (name: string) => mounts.some((m) => m.target === path.join(home, name));
  if (has('.rustup')) env.RUSTUP_HOME = path.join(home, '.rustup');
  if (has('.pyenv')) env.PYENV_ROOT = path.join(home, '.pyenv');
  if (has('.nvm')) env.NVM_DIR = path.join(home, '.nvm');
  return env;
}

/** True when every folder on the way to `p` lets others traverse it. */
export function reachableByOthers(p: string): boolean {
  let dir = path.dirname(path.resolve(p));
  for (;;) {
    try {
      if ((statSync(dir).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (dir === '/') return true;
    dir = path.dirname(dir);
  }
}

async function stage(target: string): Promise<string> {
  const staged = path.join(STAGING_DIR, target.replace(/^\//, '').replace(/\//g, '__'));
  if (await isMountPoint(staged)) return staged;
  if (process.getuid?.() !== 0) {
    throw new InfraError(`${target} is not reachable by the sandbox user and only root can stage it (run as root, or chmod o+x its parents)`);
  }
  await mkdir(staged, { recursive: true });
  await run('mount', ['--bind', target, staged]);
  await run('mount', ['-o', 'remount,ro,bind', staged]);
  return staged;
}

async function isMountPoint(dir: string): Promise<boolean> {
  const text = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  return text.split('\n').some((line) => line.split(' ')[4] === dir);
}
