import { writeFile } from 'node:fs/promises';
import { sha256 } from '../../util/index.js';
import type { Agent } from '../types.js';

/** Changes nothing: must fail every admitted task. */
export const noop: Agent = {
  info: { id: 'noop', harness: 'builtin', version: null, model: null, effort: null },
  digest: sha256('builtin:noop'),
  runSession: async (ctx) => {
    await writeFile(ctx.outputPath, '');
    return { exitCode: 0, timedOut: false, durationMs: 0 };
  },
};
