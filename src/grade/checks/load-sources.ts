import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** What {@link loadSources} found. */
export interface LoadedSources {
  /** Path relative to the repo, '/'-separated (e.g. `src/lib/parse.js`) → UTF-8 source. */
  readonly files: Record<string, string>;
  /** Sum of the files' sizes in bytes. */
  readonly totalBytes: number;
}

const SOURCE_FILE = /\.m?js$/;

/**
 * Reads every `*.js` and `*.mjs` file under `repoDir/sourceDir`, recursively, for grading
 * with generated checks. Skips `node_modules` folders. A symlink is read only when it points
 * to a file inside the repo; symlinks that leave the repo, dangling ones and symlinked folders
 * (which could loop) are skipped. A missing source folder, or one that is itself a symlink
 * leaving the repo, yields no files (the checks then fail to load).
 * @throws Error when `sourceDir` names a path outside the repo (a configuration error).
 */
export async function loadSources(repoDir: string, sourceDir: string): Promise<LoadedSources> {
  const root = path.resolve(repoDir);
  const start = path.resolve(root, sourceDir);
  const lexical = path.relative(root, start);
  if (lexical === '..' || lexical.startsWith(`..${path.sep}`) || path.isAbsolute(lexical)) {
    throw new Error(`sourceDir "${sourceDir}" points outside the repository ${root}`);
  }
  const realRoot = await realpath(root);
  const files: Record<string, string> = {};
  let totalBytes = 0;
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (SOURCE_FILE.test(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && (await isFileInside(full, realRoot))))) {
        const content = await readFile(full);
        files[path.relative(root, full).split(path.sep).join('/')] = content.toString('utf8');
        totalBytes += content.length;
      }
    }
  };
  if (await isDirInside(start, realRoot)) await visit(start);
  return { files, totalBytes };
}

async function isFileInside(link: string, realRoot: string): Promise<boolean> {
  const target = await realpath(link).catch(() => undefined);
  return target !== undefined && isInside(target, realRoot) && (await stat(target)).isFile();
}

async function isDirInside(dir: string, realRoot: string): Promise<boolean> {
  const target = await realpath(dir).catch(() => undefined);
  return target !== undefined && isInside(target, realRoot) && (await stat(target)).isDirectory();
}

function isInside(target: string, realRoot: string): boolean {
  return target === realRoot || target.startsWith(`${realRoot}${path.sep}`);
}
