import path from 'node:path';
import { canonicalJson, sha256, listTree, readEntry } from '../util/index.js';
import type { SuiteManifest, TaskManifest } from './schema.js';

/*
 * The suite hash is sha256 over a canonical listing, one line per item, in this order:
 *
 *   suite <id> <canonical JSON of the controls, defaults applied>
 *   methodology <sha256 of methodology.md>             (only when the suite has one)
 *   task <task-id> <sha256 of the task listing>        (tasks sorted by id)
 *
 * and a task listing is
 *
 *   manifest <canonical JSON of task.yaml, defaults applied>
 *   <f|x|l> <path relative to the task folder> <sha256 of content or link target>
 *
 * for every file under repo/ and orders/ (f = file, x = executable file, l = symlink), sorted
 * by path in byte order. Only content, paths and the execute bit count: mtimes, owners,
 * checkout order and YAML comments or formatting do not. The suite description is not part of
 * the contract; the owner's methodology.md is (the published methodology page renders it). TASKS.md and bakeoff.lock.json are outputs of validate and never hashed.
 */

/**
 * Hashes of one task: `hash` over its manifest and every file the agent or grader will see;
 * `repoHash` over what its prepared repo is made from — the setup command and the repo/ lines
 * of the listing — so tasks of one tree and setup (copies, a mined commit written twice) share
 * one prepared repo, and editing a prompt or a hidden test does not run the setup again;
 * `admissionHash` over the listing without what no admission check reads: the prompts
 * (`orders/<n>/prompt.md`), the manifest's words for people (`kind`, `summary`, `public`) and
 * its provenance (`origin`, but for the source's own test lists, `origin.expected`). Rewriting
 * a prompt or a summary keeps the task's kept admission, and so does one fix written from two
 * places (a mined commit in two clones, one SWE-bench instance in two datasets).
 */
export async function hashTask(taskDir: string, manifest: TaskManifest): Promise<{ readonly hash: string; readonly repoHash: string; readonly admissionHash: string }> {
  const lines = [`manifest ${canonicalJson(manifest)}`];
  const repoLines = [`setup ${JSON.stringify(manifest.setup)}`];
  const admissionLines = [`manifest ${canonicalJson(admissionManifest(manifest))}`];
  for (const sub of ['repo', 'orders']) {
    const root = path.join(taskDir, sub);
    for (const entry of await listTree(root)) {
      const tag = entry.type === 'symlink' ? 'l' : entry.executable ? 'x' : 'f';
      const line = `${tag} ${sub}/${entry.rel} ${sha256(await readEntry(root, entry))}`;
      lines.push(line);
      if (sub === 'repo') repoLines.push(line);
      if (!(sub === 'orders' && /^[^/]+\/prompt\.md$/.test(entry.rel))) admissionLines.push(line);
    }
  }
  const hashOf = (list: readonly string[]): string => sha256(list.join('\n') + '\n');
  return { hash: hashOf(lines), repoHash: hashOf(repoLines), admissionHash: hashOf(admissionLines) };
}

/** The manifest as admission reads it: its words for people and where it came from left out, the source's own test lists kept. */
function admissionManifest(manifest: TaskManifest): Omit<TaskManifest, 'kind' | 'summary' | 'public' | 'origin'> & { origin?: { expected: unknown } } {
  const { kind: _kind, summary: _summary, public: _public, origin, ...read } = manifest;
  return origin?.expected ? { ...read, origin: { expected: origin.expected } } : read;
}

/** Hash of the whole suite from its manifest and its tasks' hashes. */
export function hashSuite(manifest: SuiteManifest, tasks: readonly { id: string; hash: string }[], methodology: string | null = null): string {
  const lines = [`suite ${manifest.id} ${canonicalJson(manifest.controls)}`];
  if (methodology !== null) lines.push(`methodology ${sha256(methodology)}`);
  for (const task of [...tasks].sort((a, b) => (a.id < b.id ? -1 : 1))) lines.push(`task ${task.id} ${task.hash}`);
  return sha256(lines.join('\n') + '\n');
}
