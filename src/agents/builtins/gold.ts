import { readFile } from 'node:fs/promises';
import { sha256 } from '../../util/index.js';
import type { Agent } from '../types.js';
import { applyChangeSession } from './apply-change.js';

/** Applies each order's reference change: must solve every admitted task. */
export const gold: Agent = {
  info: { id: 'gold', harness: 'builtin', version: null, model: null, effort: null },
  digest: sha256('builtin:gold'),
  runSession: async (ctx) => applyChangeSession(ctx.workspace, await readFile(ctx.goldPatchPath, 'utf8'), ctx.outputPath),
};
