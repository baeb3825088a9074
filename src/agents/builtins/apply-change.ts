import { writeFile } from 'node:fs/promises';
import { applyPatch } from '../../sandbox/index.js';
import type { SessionResult } from '../types.js';

/**
 * A session that applies a known patch: the gold and patch agents. A patch that does not apply
 * fails the run with `patch-did-not-apply` and git's message (for the gold agent admission has
 * proved it applies).
 */
export async function applyChangeSession(workspace: string, patch: string, outputPath: string): Promise<SessionResult> {
  const started = performance.now();
  const applied = await applyPatch(workspace, patch);
  await writeFile(outputPath, applied.ok ? `applied ${patch.length} bytes of patch\n` : `${applied.error}\n`);
  return {
    exitCode: applied.ok ? 0 : 1,
    timedOut: false,
    durationMs: performance.now() - started,
    ...(applied.ok ? {} : { failure: { reason: 'patch-did-not-apply' as const, detail: `the patch does not apply: ${applied.error.slice(0, 500)}` } }),
  };
}
