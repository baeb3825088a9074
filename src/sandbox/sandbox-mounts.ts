import { homedir } from 'node:os';
import { findPackageStores, storeView } from './package-stores.js';
import { pythonFolders } from './python-bytecode.js';
import { PYTHON_BYTECODE_INSIDE } from '../util/index.js';
import { toolchainMounts } from './toolchains.js';

/** A folder of installed packages inside a mount, and what of it a sandbox shows (decision 013). */
export interface PackageStore {
  /** Its path as the sandbox sees it. */
  readonly path: string;
  /** `python site-packages`, `node global modules`. */
  readonly kind: string;
  /** Installed packages (distributions or modules) found in it on the host. */
  readonly packages: number;
  /** Those an agent can read: the test runners and package managers (pytest and what it requires, pip …; npm …). The rest are hidden. */
  readonly readable: readonly string[];
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
 * each toolchain, read-only, with the package folders inside them: of the packages installed on
 * this machine outside the task (perhaps a newer release of a task's own project) only the test
 * runners and package managers are readable, the rest hidden (`package-stores.ts`). Nothing else
 * is mounted but the toolchains' compiled Python modules: no npm, pip or cargo download cache, no home folder, no other run.
 * `bakeoff doctor` lists them.
 */
export async function sandboxMounts(hostPath = process.env.PATH ?? ''): Promise<SandboxMount[]> {
  const tools = await toolchainMounts(hostPath);
  return [
    { target: '/usr', what: 'system programs and libraries (Debian packages)', stores: packageStores('/usr') },
    { target: '/etc', what: 'system configuration (/etc/shadow hidden)', stores: [] },
    ...tools.map((tool) => ({ target: tool.target, what: `toolchain ${tool.target.replace(homedir() + '/', '~/')}`, stores: packageStores(tool.target) })),
    // the compiled modules of the Pythons above, where the Python runners' PYTHONPYCACHEPREFIX points (python-bytecode.ts)
    ...(pythonFolders(['/usr', ...tools.map((tool) => tool.target)]).length > 0
      ? [{ target: PYTHON_BYTECODE_INSIDE, what: "the Python toolchains' compiled modules (bytecode of their standard library and packages; none of any repo)", stores: [] }]
      : []),
  ];
}

function packageStores(root: string): PackageStore[] {
  return findPackageStores(root)
    .map((store) => storeView(store.path, store.kind))
    .filter((view) => view.installed.length > 0)
    .map((view) => ({ path: view.path, kind: view.kind, packages: view.installed.length, readable: view.readable }));
}
