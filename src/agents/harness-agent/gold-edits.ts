import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { patchPaths, applyPatch } from '../../sandbox/index.js';
import type { FileEdit } from '../../model-server/index.js';

/**
 * The files an order's reference change touches, with their content in the workspace now and
 * after the change: what the scripted `gold` model makes through the harness's own edit tools.
 * The patch is applied to a copy of just those files, so the workspace is untouched. Throws
 * when the patch does not apply or changes a binary file (no edit tool can write those).
 */
export async function goldEdits(workspace: string, patch: string): Promise<FileEdit[]> {
  const { paths } = await patchPaths(workspace, patch);
  const copy = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-gold-edits-'));
  try {
    for (const p of paths) {
      const from = path.join(workspace, p);
      if (!existsSync(from)) continue;
      await mkdir(path.dirname(path.join(copy, p)), { recursive: true });
      await copyFile(from, path.join(copy, p));
    }
    const applied = await applyPatch(copy, patch);
    if (!applied.ok) throw new Error(`the reference change does not apply to the workspace: ${applied.error}`);
    const edits: FileEdit[] = [];
    for (const p of paths) {
      const before = await readText(path.join(workspace, p), p);
      const after = await readText(path.join(copy, p), p);
      if (before !== after) edits.push({ path: p, before, after });
    }
    return edits;
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

async function readText(file: string, name: string): Promise<string | null> {
  if (!existsSync(file)) return null;
  const bytes = await readFile(file);
  if (bytes.includes(0)) throw new Error(`${name} is binary: the scripted gold model only makes text edits`);
  return bytes.toString('utf8');
}
