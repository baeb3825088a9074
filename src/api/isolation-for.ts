import { InfraError } from '../errors.js';
import { checkSandbox, createIsolation, selfCheckKey, type Isolation } from '../sandbox/index.js';
import type { Controls } from '../suite/index.js';
import { NO_PROBE_CACHE, type ProbeCache } from '../util/index.js';
import type { Notify } from './events.js';

/** The probe cache entry of the sandbox self-check's verdict; forget it when a sandbox fails. */
export const SANDBOX_SELF_CHECK = 'sandbox-self-check';

/**
 * The isolation a command runs with: the bubblewrap sandbox after checking it works, or —
 * only when asked — none, with a warning (every run records it; every report shows it). A
 * passing check is kept in `probes` under what it depends on (`selfCheckKey`: kernel, bwrap and
 * setpriv, user namespace switches, mount options, the day) and not run again while those hold;
 * a failing one is never kept.
 */
export async function isolationFor(controls: Controls, unsafe: boolean, notes: Pick<Notify, 'note'>, probes: ProbeCache = NO_PROBE_CACHE): Promise<Isolation> {
  if (unsafe) {
    notes.note(
      'WARNING: --unsafe-no-sandbox: agents and tests run without a sandbox (they can read hidden tests, ' +
        'the suite and the results, and have no limits). For development only; every run records it and every report shows it.',
    );
    return createIsolation({ controls, unsafe: true });
  }
  let isolation: Isolation | undefined;
  const verdict = await probes.remember(
    SANDBOX_SELF_CHECK,
    selfCheckKey(),
    async () => {
      const checks = await checkSandbox(async () => (isolation = await createIsolation({ controls, unsafe: false })).sandbox);
      const failed = checks.filter((c) => !c.ok);
      if (failed.length === 0 && isolation) return 'ok';
      return failed.map((c) => `${c.name}: ${c.detail}${c.fix ? ` (fix: ${c.fix})` : ''}`).join('; ') || 'the sandbox could not be made';
    },
    (said) => said === 'ok',
  );
  if (verdict !== 'ok') {
    throw new InfraError(`no working sandbox, refusing to run agents or tests: ${verdict}. Run \`bakeoff doctor\` for details; --unsafe-no-sandbox exists for development only`);
  }
  return isolation ?? (await createIsolation({ controls, unsafe: false }));
}
