import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { InputError, UserError } from '../errors.js';
import { listTree, readEntry } from '../util/index.js';
import { writeTaskFolder, type OrderFiles, type TreeFile } from './task-folder.js';
import type { Importer } from './types.js';

/*
 * Harbor task folders bakeoff can run without Docker: the layout `export harbor` writes (see
 * export/export-harbor.ts). Refused, with the reason: a docker-compose file (sidecar
 * services), a prebuilt `docker_image`, GPUs, MCP servers, a Windows environment, a Dockerfile
 * that does more than FROM a toolchain image bakeoff has on the host (python, node, rust),
 * COPY a folder to /app, WORKDIR /app and RUN the setup; a task without
 * [metadata].bakeoff_manifest (Harbor's tests decide by a reward file; bakeoff grades by the
 * per-test report of a test command and format, which that field names); a solution that is a
 * script rather than solution/gold.patch.
 */

export interface ImportHarborOptions {
  /** A Harbor task folder (task.toml), or a folder of them. */
  readonly source: string;
  readonly suiteDir: string;
}

export type ImportedHarborTask =
  | { readonly folder: string; readonly written: true; readonly id: string; readonly taskDir: string; readonly orders: number }
  | { readonly folder: string; readonly written: false; readonly reason: string };

const TOOLCHAIN_IMAGES = /^(python|node|rust)(:[\w.-]+)?$/;

export async function importHarbor(options: ImportHarborOptions): Promise<ImportedHarborTask[]> {
  const folders = (await isFile(path.join(options.source, 'task.toml')))
    ? [options.source]
    : (await readdir(options.source).catch(() => [] as string[])).sort().map((n) => path.join(options.source, n));
  const tasks: string[] = [];
  for (const f of folders) if (await isFile(path.join(f, 'task.toml'))) tasks.push(f);
  if (tasks.length === 0) throw new InputError([{ file: options.source, field: '', expected: 'a Harbor task folder (task.toml) or a folder of them', received: 'no task.toml' }]);
  const out: ImportedHarborTask[] = [];
  for (const folder of tasks) {
    try {
      out.push(await importOne(folder, options.suiteDir));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      out.push({ folder, written: false, reason: error.message });
    }
  }
  return out;
}

async function importOne(folder: string, suiteDir: string): Promise<ImportedHarborTask> {
  const tomlFile = path.join(folder, 'task.toml');
  let toml: Record<string, unknown>;
  try {
    toml = parseToml(await readFile(tomlFile, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new InputError([{ file: tomlFile, field: '', expected: 'TOML', received: String((error as Error).message).split('\n')[0]! }]);
  }
  const env = (toml['environment'] ?? {}) as Record<string, unknown>;
  const refuse = (why: string): never => {
    throw new UserError(`${folder}: ${why}; bakeoff runs tasks on the host's toolchains in its sandbox, without Docker`);
  };
  for (const compose of ['docker-compose.yaml', 'docker-compose.yml', 'compose.yaml']) if (await isFile(path.join(folder, 'environment', compose))) refuse(`environment/${compose} starts services beside the task`);
  if (env['docker_image'] !== undefined) refuse(`[environment].docker_image ${JSON.stringify(env['docker_image'])} is a prebuilt image`);
  if (typeof env['gpus'] === 'number' && env['gpus'] > 0) refuse(`[environment].gpus = ${env['gpus']} asks for GPUs`);
  if (env['mcp_servers'] !== undefined) refuse('[[environment.mcp_servers]] asks for MCP servers');
  if (env['os'] !== undefined && env['os'] !== 'linux') refuse(`[environment].os = ${JSON.stringify(env['os'])}`);
  const appDir = await checkDockerfile(folder, refuse);
  const meta = (toml['metadata'] ?? {}) as Record<string, unknown>;
  if (typeof meta['bakeoff_manifest'] !== 'string') {
    throw new UserError(`${tomlFile}: [metadata].bakeoff_manifest is missing: Harbor's tests/test.sh decides by a reward file, and bakeoff grades by the per-test report of a test command and format, which that field (task.yaml as JSON) names; bakeoff imports the tasks it exported`);
  }
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(meta['bakeoff_manifest']) as Record<string, unknown>;
  } catch {
    throw new InputError([{ file: tomlFile, field: 'metadata.bakeoff_manifest', expected: 'task.yaml as JSON', received: meta['bakeoff_manifest'].slice(0, 60) }]);
  }
  const steps = Array.isArray(toml['steps']) ? (toml['steps'] as { name?: unknown }[]) : [];
  const stepDirs = steps.length > 0 ? steps.map((s) => path.join(folder, 'steps', String(s.name))) : [folder];
  const orders: OrderFiles[] = [];
  for (const [i, at] of stepDirs.entries()) orders.push(await orderOf(at, i + 1, folder));
  const name = typeof (toml['task'] as { name?: unknown } | undefined)?.name === 'string' ? (toml['task'] as { name: string }).name : path.basename(folder);
  const id = name.split('/').pop()!.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  const repo: TreeFile[] = [];
  for (const e of await listTree(appDir)) repo.push({ path: e.rel, content: await readEntry(appDir, e), kind: e.type === 'symlink' ? 'symlink' : e.executable ? 'executable' : 'file' });
  const { taskDir } = await writeTaskFolder({ suiteDir, id, manifest, repo, orders, suiteDescription: 'Tasks imported from Harbor task folders.' });
  return { folder, written: true, id, taskDir, orders: orders.length };
}

/** The folder the Dockerfile copies to /app; refuses any other instruction than FROM <toolchain>, COPY <dir> /app, WORKDIR /app, RUN. */
async function checkDockerfile(folder: string, refuse: (why: string) => never): Promise<string> {
  const file = path.join(folder, 'environment', 'Dockerfile');
  const text = await readFile(file, 'utf8').catch(() => refuse('environment/Dockerfile is missing (the task has no environment bakeoff can read)'));
  let app: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [op, ...args] = line.split(/\s+/);
    const word = op!.toUpperCase();
    if (word === 'FROM' && TOOLCHAIN_IMAGES.test(args[0] ?? '')) continue;
    if (word === 'FROM') refuse(`environment/Dockerfile starts FROM ${args[0]}, not a toolchain image bakeoff has on the host (python, node, rust)`);
    if (word === 'WORKDIR' && args[0] === '/app') continue;
    if (word === 'RUN') continue;
    if (word === 'COPY' && args.length === 2 && args[1]!.replace(/\/$/, '') === '/app' && !args[0]!.startsWith('-')) {
      app = path.join(folder, 'environment', args[0]!);
      continue;
    }
    refuse(`environment/Dockerfile: ${line.slice(0, 80)} is more than FROM <toolchain>, COPY <dir> /app, WORKDIR /app and RUN <setup>`);
  }
  if (!app || !(await stat(app).then((s) => s.isDirectory(), () => false))) refuse('environment/Dockerfile copies no folder of environment/ to /app (the repo)');
  return app!;
}

async function orderOf(at: string, n: number, folder: string): Promise<OrderFiles> {
  const where = path.relative(folder, at) || '.';
  const prompt = await readFile(path.join(at, 'instruction.md'), 'utf8').catch(() => {
    throw new UserError(`${folder}: ${where}/instruction.md is missing`);
  });
  const gold = await readFile(path.join(at, 'solution', 'gold.patch')).catch(() => {
    throw new UserError(`${folder}: ${where}/solution/gold.patch is missing: bakeoff's gold is a patch, and solve.sh is a script bakeoff does not run to find one`);
  });
  const hiddenDir = path.join(at, 'tests', `hidden-${n}`);
  const hidden = new Map<string, Buffer>();
  for (const e of await listTree(hiddenDir).catch(() => [])) hidden.set(e.rel, await readEntry(hiddenDir, e));
  return { prompt, gold, hidden };
}

async function isFile(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isFile(), () => false);
}

/** `import harbor` in the registry. */
export const harborImporter: Importer = {
  reads: 'a Harbor task folder (task.toml), or a folder of them',
  importTasks: async (request) =>
    (await importHarbor(request)).map((r) => (r.written ? { item: r.folder, written: true, id: r.id, taskDir: r.taskDir } : { item: r.folder, written: false, reason: r.reason })),
};
