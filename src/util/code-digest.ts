import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root: this file is `<root>/dist/util/code-digest.js` (or `<root>/src/util/code-digest.ts` under the tests). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let memo: Promise<string> | undefined;

/**
 * sha256 over bakeoff's own code as it runs: every file the package ships (package.json
 * `files`: the built JavaScript, the reporters, the QuickJS worker scripts), source maps and
 * type declarations left out. What bakeoff decided on this machine before (a kept admission)
 * is kept only for the same code: a rebuilt bakeoff whose version string did not change still
 * decides again. Read once per process (~400 files).
 */
export function codeDigest(): Promise<string> {
  memo ??= digestPackage();
  return memo;
}

async function digestPackage(): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { files?: string[] };
  const files: string[] = [];
  for (const entry of manifest.files ?? ['dist']) await collect(path.join(ROOT, entry), files);
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    hash.update(`${path.relative(ROOT, file)}\n`);
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}

async function collect(at: string, into: string[]): Promise<void> {
  const st = await stat(at).catch(() => null);
  if (st === null) return;
  if (st.isFile()) {
    if (!/\.(map|d\.ts)$/.test(at)) into.push(at);
    return;
  }
  if (!st.isDirectory()) return;
  for (const entry of await readdir(at)) await collect(path.join(at, entry), into);
}
