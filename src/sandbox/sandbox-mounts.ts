import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { toolchainMounts } from './toolchains.js';

/** A folder of installed packages inside a mount: what an agent could read besides the task. */
export interface PackageStore {
  /** Its path as the sandbox sees it. */
  readonly path: string;
  /** `python site-packages`, `node global modules`. */
  readonly kind: string;
  /** Installed packages (distributions or modules) found in it. */
  readonly packages: number;
}

/** One read-only mount of every sandbox (agent sessions and test runs), beside the task's own folders. */
export interface SandboxMount {
  /** Where it appears inside (its host path, for toolchains). */
  readonly target: string;
  readonly what: string;
  readonly stores: readonly PackageStore[];
}

/**
 * What an agent can read in bakeoff's sandbox besides its workspace (the prepared repo, with
 * whatever the task's setup installed into it): `/usr` and `/etc` (`/etc/shadow` hidden), and
 * each toolchain, read-only, with the package folders inside them counted — packages installed
 * on this machine outside the task, perhaps a newer release of a task's own project. Nothing
 * else is mounted: no npm, pip or cargo download cache, no home folder, no other run.
 * `bakeoff doctor` lists them.
 */
export async function sandboxMounts(hostPath = process.env.PATH ?? ''): Promise<SandboxMount[]> {
  const tools = await toolchainMounts(hostPath);
  return [
    { target: '/usr', what: 'system programs and libraries (Debian packages)', stores: packageStores('/usr') },
    { target: '/etc', what: 'system configuration (/etc/shadow hidden)', stores: [] },
    ...tools.map((tool) => ({ target: tool.target, what: `toolchain ${tool.target.replace(homedir() + '/', '~/')}`, stores: packageStores(tool.target) })),
  ];
}

/** Python site-packages / dist-packages and node global module folders under `root`, a few levels deep (pyenv versions, nvm versions). */
function packageStores(root: string): PackageStore[] {
  const found: PackageStore[] = [];
  const visit = (dir: string, depth: number): void => {
    const name = path.basename(dir);
    if (name === 'site-packages' || name === 'dist-packages') {
      found.push({ path: dir, kind: 'python site-packages', packages: count(dir, (e) => e.endsWith('.dist-info') || e.endsWith('.egg-info')) });
      return;
    }
    if (name === 'node_modules' && path.basename(path.dirname(dir)) === 'lib') {
      found.push({ path: dir, kind: 'node global modules', packages: count(dir, (e) => !e.startsWith('.')) });
      return;
    }
    if (depth === 0) return;
    for (const entry of entries(dir)) if (entry.isDirectory() && !entry.isSymbolicLink()) visit(path.join(dir, entry.name), depth - 1);
  };
  // /usr/lib/python3/dist-packages, /usr/local/lib/python3.11/site-packages, ~/.pyenv/versions/3.11.7/lib/python3.11/site-packages, ~/.nvm/versions/node/v20/lib/node_modules
  for (const start of ['lib', 'local/lib', 'versions']) {
    const dir = path.join(root, start);
    if (existsSync(dir)) visit(dir, start === 'versions' ? 4 : 2);
  }
  return found.filter((store) => store.packages > 0);
}

function entries(dir: string): import('node:fs').Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function count(dir: string, take: (name: string) => boolean): number {
  return entries(dir).filter((e) => take(e.name)).length;
}
