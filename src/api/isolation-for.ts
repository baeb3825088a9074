import { InfraError } from '../errors.js';
import { checkSandbox, createIsolation, type Isolation } from '../sandbox/index.js';
import type { Controls } from '../suite/index.js';
import type { Notify } from './events.js';

/**
 * The isolation a command runs with: the bubblewrap sandbox after checking it works, or —
 * only when asked — none, with a warning (every run records it; every report shows it).
 */
export async function isolationFor(controls: Controls, unsafe: boolean, notes: Pick<Notify, 'note'>): Promise<Isolation> {
  if (unsafe) {
    notes.note(
      'WARNING: --unsafe-no-sandbox: agents and tests run without a sandbox (they can read hidden tests, ' +
        'the suite and the results, and have no limits). For development only; every run records it and every report shows it.',
    );
    return createIsolation({ controls, unsafe: true });
  }
  let isolation: Isolation | undefined;
  const checks = await checkSandbox(async () => (isolation = await createIsolation({ controls, unsafe: false })).sandbox);
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0 || !isolation) {
    const why = failed.map((c) => `${c.name}: ${c.detail}${c.fix ? ` (fix: ${c.fix})` : ''}`).join('; ');
    throw new InfraError(`no working sandbox, refusing to run agents or tests: ${why}. Run \`bakeoff doctor\` for details; --unsafe-no-sandbox exists for development only`);
  }
  return isolation;
}
