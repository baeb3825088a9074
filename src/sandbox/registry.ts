import { UserError } from '../errors.js';
import { createBwrapSandbox } from './bwrap-sandbox.js';
import { createProcessSandbox } from './process-sandbox.js';
import { PACKAGE_VIEWS, packageMasks } from './package-stores.js';
import { pythonBytecode } from './python-bytecode.js';
import { toolchainMounts } from './toolchains.js';
import type { SandboxBackend } from './types.js';

const MB = 1024 * 1024;

/**
 * The sandbox backends, by the name each records in every run (`runtime.sandbox`) and that
 * `--sandbox` takes. A backend is a file or folder of this module exporting a `SandboxBackend`
 * (`types.ts`) and one line here, `'<name>': (await import('./<name>/index.js')).<export>,`.
 * The isolation (`isolation.ts`) makes the one asked for; the conformance suite
 * (`conformance.test.ts`) runs them all.
 */
export const SANDBOX_BACKENDS = {
  bwrap: {
    isolates: true,
    requires: ['bwrap'],
    create: async ({ controls, uid }) => {
      const tools = await toolchainMounts();
      const roots = ['/usr', ...tools.map((tool) => tool.target)];
      return createBwrapSandbox({
        uid,
        limits: { memoryBytes: controls.memoryMb * MB, pids: controls.pids, cpus: controls.cpus },
        tmpBytes: controls.tmpMb * MB,
        homeBytes: controls.homeMb * MB,
        tools,
        masks: await packageMasks(roots),
        pythonBytecode: await pythonBytecode(roots, PACKAGE_VIEWS),
      });
    },
  },
  'unsafe-no-sandbox': {
    isolates: false,
    // bwrap only for its namespaces (pid, network): it hides nothing
    requires: ['bwrap'],
    create: async () => createProcessSandbox(),
  },
} as const satisfies Record<string, SandboxBackend>;

export type SandboxName = keyof typeof SANDBOX_BACKENDS;

/** Every backend's name, in registry order. */
export const SANDBOX_NAMES = Object.keys(SANDBOX_BACKENDS) as readonly SandboxName[];

/** The backend of agents and grading unless another is asked for. */
export const DEFAULT_SANDBOX: SandboxName = 'bwrap';

/** The backend of that name, with its name; a clear error naming the known ones otherwise. */
export function sandboxNamed(name: string): SandboxBackend & { readonly name: SandboxName } {
  if (!Object.hasOwn(SANDBOX_BACKENDS, name)) {
    throw new UserError(`--sandbox: expected one of ${SANDBOX_NAMES.join(', ')}, received ${JSON.stringify(name)}`);
  }
  const known = name as SandboxName;
  return { name: known, ...(SANDBOX_BACKENDS[known] as SandboxBackend) };
}
