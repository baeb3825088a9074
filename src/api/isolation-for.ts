import { InfraError } from '../errors.js';
import { checkSandbox, createIsolation, sandboxNamed, selfCheckKey, type Isolation } from '../sandbox/index.js';
import type { Controls } from '../suite/index.js';
import { NO_PROBE_CACHE, type ProbeCache } from '../util/index.js';
import type { Notify } from './events.js';

/** The probe cache entry of the sandbox self-check's verdict; forget it when a sandbox fails. */
export const SANDBOX_SELF_CHECK = 'sandbox-self-check';

/**
 * The isolation a command runs with, on the sandbox backend named (`sandbox/registry.ts`;
 * `bwrap` unless asked): an isolating one after checking it works; one that does not isolate
 * (`unsafe-no-sandbox`) only when asked, with a warning (every run records it; every report
 * shows it). A passing check is kept in `probes` under what it depends on (`selfCheckKey`:
 * kernel, bwrap and setpriv, user namespace switches, mount options, the day, and the backend)
 * and not run again while those hold; a failing one is never kept. An unknown name is a clear
 * error listing the known ones.
 */
export async function isolationFor(controls: Controls, backendName: string, notes: Pick<Notify, 'note'>, probes: ProbeCache = NO_PROBE_CACHE): Promise<Isolation> {
  const backend = sandboxNamed(backendName);
  if (!backend.isolates) {
    notes.note(
      `WARNING: ${sandboxFlagOf(backend.name)}: agents and tests run without a sandbox (they can read hidden tests, ` +
        'the suite and the results, and have no limits). For development only; every run records it and every report shows it.',
    );
    return createIsolation({ controls, backend: backend.name });
  }
  let isolation: Isolation | undefined;
  const verdict = await probes.remember(
    SANDBOX_SELF_CHECK,
    { ...selfCheckKey(), backend: backend.name },
    async () => {
      const checks = await checkSandbox(async () => (isolation = await createIsolation({ controls, backend: backend.name })).sandbox);
      const failed = checks.filter((c) => !c.ok);
      if (failed.length === 0 && isolation) return 'ok';
      return failed.map((c) => `${c.name}: ${c.detail}${c.fix ? ` (fix: ${c.fix})` : ''}`).join('; ') || 'the sandbox could not be made';
    },
    (said) => said === 'ok',
  );
  if (verdict !== 'ok') {
    throw new InfraError(`no working sandbox, refusing to run agents or tests: ${verdict}. Run \`bakeoff doctor\` for details; --unsafe-no-sandbox exists for development only`);
  }
  return isolation ?? (await createIsolation({ controls, backend: backend.name }));
}

/** How a backend is asked for on the command line: `--unsafe-no-sandbox` keeps its own flag. */
function sandboxFlagOf(name: string): string {
  return name === 'unsafe-no-sandbox' ? '--unsafe-no-sandbox' : `--sandbox ${name}`;
}
