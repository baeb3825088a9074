import { mkdir, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { UserError } from '../errors.js';
import { ID_PATTERN, TaskManifestSchema } from '../suite/index.js';
import { exists } from '../util/index.js';

/*
 * What every importer shares: a task folder written whole or not at all.
 *
 *   <suite>/tasks/.<id>.tmp-<pid>/   written here first (loadSuite skips dot folders)
 *   <suite>/tasks/<id>/              then renamed into place
 *     task.yaml  repo/  orders/<n>/{prompt.md, gold.patch, hidden/}
 */

/** One order of a task to write. */
export interface OrderFiles {
  readonly prompt: string;
  readonly gold: Buffer | string;
  /** Hidden files by path relative to the repo. */
  readonly hidden: ReadonlyMap<string, Buffer | string>;
}

/** A file of a tree to write: its bytes (or a link target) and mode. */
export interface TreeFile {
  readonly path: string;
  readonly content: Buffer | string;
  readonly kind?: 'file' | 'executable' | 'symlink';
}

export interface TaskFolderOptions {
  readonly suiteDir: string;
  readonly id: string;
  /** task.yaml's content: checked against the schema before anything is written. */
  readonly manifest: Readonly<Record<string, unknown>>;
  readonly repo: readonly TreeFile[];
  readonly orders: readonly OrderFiles[];
  /** The description of a suite.yaml made when the folder has none. */
  readonly suiteDescription: string;
}

/** Writes one task folder (and a suite.yaml of defaults when the suite has none); returns its path and whether the suite was made. */
export async function writeTaskFolder(options: TaskFolderOptions): Promise<{ taskDir: string; suiteCreated: boolean }> {
  const { suiteDir, id } = options;
  if (!ID_PATTERN.test(id)) throw new UserError(`task id ${JSON.stringify(id)}: a task id matches ${ID_PATTERN}`);
  checkManifest(options.manifest, id);
  const taskDir = path.join(suiteDir, 'tasks', id);
  if (await exists(taskDir)) throw new UserError(`${taskDir}: the suite has a task ${id} already; choose another id or remove it`);
  const suiteCreated = !(await exists(path.join(suiteDir, 'suite.yaml')));
  const tmp = path.join(suiteDir, 'tasks', `.${id}.tmp-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  try {
    await writeFiles(path.join(tmp, 'repo'), options.repo);
    for (const [i, order] of options.orders.entries()) {
      const dir = path.join(tmp, 'orders', String(i + 1));
      await writeFiles(path.join(dir, 'hidden'), [...order.hidden].map(([p, content]) => ({ path: p, content })));
      await writeFile(path.join(dir, 'gold.patch'), order.gold);
      await writeFile(path.join(dir, 'prompt.md'), order.prompt);
    }
    await writeFile(path.join(tmp, 'task.yaml'), stringify(options.manifest, { lineWidth: 0 }));
    if (suiteCreated) await writeSuiteYaml(suiteDir, options.suiteDescription);
    await rename(tmp, taskDir);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  return { taskDir, suiteCreated };
}

/** Writes files under `root` (made even when there are none). */
export async function writeFiles(root: string, files: readonly TreeFile[]): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const f of files) {
    const rel = path.normalize(f.path);
    if (path.isAbsolute(rel) || rel.split(path.sep).includes('..')) throw new UserError(`${f.path}: a path inside the task's repo (relative, without ..)`);
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    if (f.kind === 'symlink') await symlink(f.content.toString(), file);
    else await writeFile(file, f.content, { mode: f.kind === 'executable' ? 0o755 : 0o644 });
  }
}

function checkManifest(manifest: Readonly<Record<string, unknown>>, id: string): void {
  const checked = TaskManifestSchema.safeParse(manifest);
  if (!checked.success) {
    throw new UserError(`task ${id}: task.yaml as drafted does not fit the schema: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
}

async function writeSuiteYaml(suiteDir: string, description: string): Promise<void> {
  const id = slugOf(path.basename(suiteDir)) || 'suite';
  await mkdir(suiteDir, { recursive: true });
  await writeFile(path.join(suiteDir, 'suite.yaml'), stringify({ schemaVersion: 1, id, description, controls: {} }));
}

/** `Fix: quoted fields spanning lines` → `fix-quoted-fields-spanning-lines` (at most 48 characters). */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

/** `base`, or `base-2`, `base-3` … : the first id the suite has no task of. */
export async function freeId(suiteDir: string, base: string): Promise<string> {
  const taken = new Set(await readdir(path.join(suiteDir, 'tasks')).catch(() => [] as string[]));
  const stem = base || 'task';
  let id = stem;
  for (let n = 2; taken.has(id); n++) id = `${stem}-${n}`;
  return id;
}
