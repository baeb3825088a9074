import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError, type InputIssue } from '../errors.js';
import { canonicalJson, sha256, exists, listTree, readYamlFile } from '../util/index.js';
import { ALWAYS_PROTECTED, ID_PATTERN, keysAt, SuiteManifest, TaskManifest } from './schema.js';
import { readPrompt } from './read-prompt.js';
import { hashSuite, hashTask } from './suite-hash.js';
import type { Order, Suite, Task } from './types.js';

/**
 * Reads and checks a suite folder (layout: docs/suite-format.md). Collects every problem in
 * every file before failing, and throws one `InputError` listing them all.
 */
export async function loadSuite(dir: string): Promise<Suite> {
  const root = path.resolve(dir);
  const issues: InputIssue[] = [];
  const suiteFile = path.join(root, 'suite.yaml');
  if (!(await isDir(root))) {
    throw new InputError([{ file: root, field: '', expected: 'a suite folder', received: 'no such folder' }]);
  }
  const manifest = await readYamlFile(suiteFile, SuiteManifest, issues, { knownKeys: (p) => keysAt(SuiteManifest, p) });
  const tasksDir = path.join(root, 'tasks');
  const ids = (await isDir(tasksDir)) ? (await readdir(tasksDir)).filter((n) => !n.startsWith('.')).sort() : [];
  if (ids.length === 0) issues.push({ file: tasksDir, field: '', expected: 'at least one task folder', received: 'none' });
  const tasks: Task[] = [];
  for (const id of ids) {
    const task = await loadTask(path.join(tasksDir, id), id, issues);
    if (task) tasks.push(task);
  }
  const methodology = await readMethodology(path.join(root, METHODOLOGY_FILE), issues);
  if (issues.length > 0 || !manifest) throw new InputError(issues);
  const suiteProtected = manifest.controls.protectedPaths;
  const withProtected = tasks.map((t) => ({
    ...t,
    protectedPaths: [...new Set([...ALWAYS_PROTECTED, ...suiteProtected, ...t.manifest.protectedPaths])],
    allowedPaths: [...new Set([...manifest.controls.allowedPaths, ...t.manifest.allowedPaths])],
  }));
  return {
    dir: root,
    manifest,
    id: manifest.id,
    controls: manifest.controls,
    controlsDigest: sha256(canonicalJson(manifest.controls)),
    tasks: withProtected,
    methodology,
    hash: hashSuite(manifest, tasks, methodology),
  };
}

/** The owner's words for the published methodology page, beside suite.yaml. */
export const METHODOLOGY_FILE = 'methodology.md';
const MAX_METHODOLOGY_BYTES = 64 * 1024;

async function readMethodology(file: string, issues: InputIssue[]): Promise<string | null> {
  let text: Buffer;
  try {
    text = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    issues.push({ file, field: '', expected: 'a readable markdown file', received: (error as Error).message });
    return null;
  }
  if (text.length > MAX_METHODOLOGY_BYTES) {
    issues.push({ file, field: '', expected: `at most ${MAX_METHODOLOGY_BYTES} bytes of markdown`, received: `${text.length} bytes` });
    return null;
  }
  const decoded = text.toString('utf8');
  if (decoded.includes('\uFFFD')) {
    issues.push({ file, field: '', expected: 'UTF-8 text', received: 'bytes that are not UTF-8' });
    return null;
  }
  return decoded;
}

async function loadTask(dir: string, id: string, issues: InputIssue[]): Promise<Task | undefined> {
  const before = issues.length;
  if (!ID_PATTERN.test(id)) {
    issues.push({ file: dir, field: '', expected: `a task folder name matching ${ID_PATTERN}`, received: JSON.stringify(id) });
  }
  const manifest = await readYamlFile(path.join(dir, 'task.yaml'), TaskManifest, issues, { knownKeys: (p) => keysAt(TaskManifest, p) });
  const repoDir = path.join(dir, 'repo');
  if (!(await isDir(repoDir))) issues.push({ file: repoDir, field: '', expected: 'the task repo folder', received: 'no such folder' });
  const orders = await loadOrders(path.join(dir, 'orders'), issues);
  if (!manifest || issues.length > before) return undefined;
  const { hash, repoHash, admissionHash } = await hashTask(dir, manifest);
  return { id, dir, repoDir, manifest, orders, hash, repoHash, admissionHash, protectedPaths: [], allowedPaths: [] };
}

async function loadOrders(ordersDir: string, issues: InputIssue[]): Promise<Order[]> {
  const names = (await isDir(ordersDir)) ? (await readdir(ordersDir)).filter((n) => !n.startsWith('.')) : [];
  const numbers = names.map(Number).sort((a, b) => a - b);
  const wellNumbered = names.every((n) => /^[1-9][0-9]*$/.test(n)) && numbers.every((n, i) => n === i + 1);
  if (numbers.length === 0 || !wellNumbered) {
    issues.push({
      file: ordersDir,
      field: '',
      expected: 'order folders numbered 1, 2, … without gaps',
      received: names.length ? names.sort().join(', ') : 'none',
    });
    return [];
  }
  const orders: Order[] = [];
  for (const index of numbers) {
    const dir = path.join(ordersDir, String(index));
    const promptPath = path.join(dir, 'prompt.md');
    const goldPatchPath = path.join(dir, 'gold.patch');
    const hiddenDir = path.join(dir, 'hidden');
    for (const file of [promptPath, goldPatchPath]) {
      if (!(await exists(file))) issues.push({ file, field: '', expected: 'a file', received: 'no such file' });
    }
    const hiddenFiles = (await isDir(hiddenDir)) ? (await listTree(hiddenDir)).map((e) => e.rel) : [];
    const prompt = (await exists(promptPath)) ? await readPrompt(promptPath, issues) : '';
    orders.push({ index, dir, prompt, promptPath, hiddenDir, hiddenFiles, goldPatchPath });
  }
  return orders;
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}
