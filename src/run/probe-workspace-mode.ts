import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Isolation, createWorkspace } from '../sandbox/index.js';

/**
 * The workspace kind (`overlay` or `copy`) runs get on this machine, found by making one over
 * an empty folder: a void run that never made a workspace records the same `runtime.workspace`
 * as the bake's other runs. Null when not even that works (the runs will say why).
 */
export async function probeWorkspaceMode(scratch: string, isolation: Isolation): Promise<string | null> {
  const dir = await mkdtemp(path.join(scratch, 'probe-'));
  try {
    const lower = path.join(dir, 'repo');
    await mkdir(lower);
    const workspace = await createWorkspace(lower, path.join(dir, 'ws'), { ...isolation.workspace, diskBytes: 1024 * 1024 });
    await workspace.dispose();
    return workspace.mode;
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
