import path from 'node:path';
import { execa } from 'execa';
import { UserError } from '../errors.js';
import { dieWithParent } from '../util/index.js';

/*
 * Read-only access to a suite author's git repository, with configuration bakeoff controls:
 * no hooks, no fsmonitor, no filters, no pager, no system or global config, so reading a
 * repository never runs its code. Contents come from the object database byte for byte.
 */

export const SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.quotePath=false', '-c', 'safe.directory=*', '-c', 'diff.renames=false'];
export const SAFE_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };

/** One entry of a tree: a file, an executable, a symlink, or a submodule (gitlink). */
export interface TreeEntry {
  readonly path: string;
  readonly kind: 'file' | 'executable' | 'symlink' | 'submodule';
  readonly sha: string;
}

/** One path a commit changed, against its parent. */
export interface ChangedPath {
  readonly path: string;
  readonly status: 'added' | 'modified' | 'deleted' | 'type-changed';
  /** git shows no line counts for it. */
  readonly binary: boolean;
  readonly added: number;
  readonly removed: number;
}

export interface GitRepo {
  readonly dir: string;
  /** The full sha of a revision that names a commit; UserError naming it otherwise. */
  commit(rev: string): Promise<string>;
  /** Parent shas of a commit, as its object records them (they may be missing from a shallow clone). */
  parents(sha: string): Promise<string[]>;
  /** Whether the object is in this clone. */
  has(sha: string): Promise<boolean>;
  shallow(): Promise<boolean>;
  /** Every path `to` changes against `from`, renames shown as a deletion and an addition. */
  changes(from: string, to: string): Promise<ChangedPath[]>;
  tree(rev: string): Promise<TreeEntry[]>;
  /** Blob contents by sha. */
  blobs(shas: readonly string[]): Promise<Map<string, Buffer>>;
  /** Object sizes in bytes by sha (`git cat-file --batch-check`), without reading the objects. */
  sizes(shas: readonly string[]): Promise<Map<string, number>>;
  /** `git diff --binary from to -- paths` (the bytes of a patch for `git apply`). */
  diff(from: string, to: string, paths: readonly string[]): Promise<Buffer>;
  /** The commit message, as written. */
  message(sha: string): Promise<string>;
  /** `remote.origin.url`, or null. */
  originUrl(): Promise<string | null>;
  /** The newest `limit` commits of `range` along first parents (newest first), with their subjects. */
  history(range: string, limit: number): Promise<{ sha: string; subject: string }[]>;
}

export async function openGitRepo(dir: string): Promise<GitRepo> {
  const root = path.resolve(dir);
  const run = async (args: readonly string[], input?: Buffer): Promise<Buffer> => {
    const [file, ...argv] = dieWithParent(['git', ...SAFE_CONFIG, ...args]);
    const result = await execa(file!, argv, { cwd: root, env: SAFE_ENV, encoding: 'buffer', stripFinalNewline: false, reject: false, maxBuffer: 2 ** 31, ...(input ? { input } : {}) });
    if (result.exitCode !== 0) throw new GitFailed(args, Buffer.from(result.stderr).toString('utf8').trim());
    return Buffer.from(result.stdout);
  };
  const text = async (args: readonly string[]): Promise<string> => (await run(args)).toString('utf8');
  try {
    const top = (await text(['rev-parse', '--show-toplevel'])).trim();
    if (path.resolve(top) !== root) throw new UserError(`${dir}: not the top of a git repository (its top is ${top})`);
  } catch (error) {
    if (error instanceof GitFailed) throw new UserError(`${dir}: not a git repository (${error.stderr || 'git rev-parse failed'})`);
    throw error;
  }
  return {
    dir: root,
    async commit(rev) {
      try {
        return (await text(['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`])).trim();
      } catch (error) {
        if (error instanceof GitFailed) throw new UserError(`${rev}: not a commit of ${dir}`);
        throw error;
      }
    },
    async parents(sha) {
      // from the commit object itself: a shallow clone's boundary commit still names its parents
      const header = (await text(['cat-file', 'commit', sha])).split('\n\n')[0]!;
      return header.split('\n').flatMap((line) => (line.startsWith('parent ') ? [line.slice(7).trim()] : []));
    },
    async has(sha) {
      return run(['cat-file', '-e', sha]).then(
        () => true,
        () => false,
      );
    },
    async shallow() {
      return (await text(['rev-parse', '--is-shallow-repository'])).trim() === 'true';
    },
    async changes(from, to) {
      const status = (await text(['diff', '--no-renames', '--no-textconv', '--no-ext-diff', '--name-status', '-z', from, to])).split('\0');
      const numstat = (await text(['diff', '--no-renames', '--no-textconv', '--no-ext-diff', '--numstat', '-z', from, to])).split('\0');
      const counts = new Map<string, { added: number; removed: number; binary: boolean }>();
      for (const rec of numstat) {
        const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
        if (m) counts.set(m[3]!, { added: m[1] === '-' ? 0 : Number(m[1]), removed: m[2] === '-' ? 0 : Number(m[2]), binary: m[1] === '-' });
      }
      const out: ChangedPath[] = [];
      for (let i = 0; i + 1 < status.length; i += 2) {
        const code = status[i]!;
        const file = status[i + 1]!;
        if (code === '') break;
        const kind = code.startsWith('A') ? 'added' : code.startsWith('D') ? 'deleted' : code.startsWith('T') ? 'type-changed' : 'modified';
        out.push({ path: file, status: kind, ...(counts.get(file) ?? { added: 0, removed: 0, binary: false }) });
      }
      return out;
    },
    async tree(rev) {
      const out = (await text(['ls-tree', '-r', '-z', '--full-tree', rev])).split('\0').filter(Boolean);
      return out.map((line) => {
        const tab = line.indexOf('\t');
        const [mode, , sha] = line.slice(0, tab).split(' ');
        const kind = mode === '160000' ? 'submodule' : mode === '120000' ? 'symlink' : mode === '100755' ? 'executable' : 'file';
        return { path: line.slice(tab + 1), kind, sha: sha! };
      });
    },
    async blobs(shas) {
      const out = new Map<string, Buffer>();
      if (shas.length === 0) return out;
      const buf = await run(['cat-file', '--batch'], Buffer.from(shas.join('\n') + '\n'));
      let at = 0;
      while (at < buf.length) {
        const nl = buf.indexOf(10, at);
        const [sha, type, size] = buf.subarray(at, nl).toString('utf8').split(' ');
        if (type !== 'blob') throw new UserError(`${dir}: object ${sha} is ${type ?? 'unreadable'}, not a file's contents`);
        const start = nl + 1;
        out.set(sha!, buf.subarray(start, start + Number(size)));
        at = start + Number(size) + 1;
      }
      return out;
    },
    async sizes(shas) {
      const out = new Map<string, number>();
      if (shas.length === 0) return out;
      const lines = (await run(['cat-file', '--batch-check=%(objectname) %(objectsize)'], Buffer.from(shas.join('\n') + '\n'))).toString('utf8').split('\n');
      for (const line of lines) {
        const [sha, size] = line.split(' ');
        if (sha && size && /^\d+$/.test(size)) out.set(sha, Number(size));
      }
      return out;
    },
    async diff(from, to, paths) {
      if (paths.length === 0) return Buffer.alloc(0);
      return run(['diff', '--binary', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', '--full-index', from, to, '--', ...paths.map((p) => `:(literal)${p}`)]);
    },
    async message(sha) {
      return text(['log', '-1', '--format=%B', sha]);
    },
    async history(range, limit) {
      let out: string;
      try {
        out = await text(['log', '--first-parent', `--max-count=${limit}`, '--format=%H%x00%s', '--end-of-options', range]);
      } catch (error) {
        if (error instanceof GitFailed) throw new UserError(`--range ${range}: not a revision range of ${dir} (${error.stderr})`);
        throw error;
      }
      return out.split('\n').filter(Boolean).map((line) => {
        const [sha, subject] = line.split('\0');
        return { sha: sha!, subject: subject ?? '' };
      });
    },
    async originUrl() {
      return run(['config', '--get', 'remote.origin.url']).then(
        (b) => b.toString('utf8').trim() || null,
        () => null,
      );
    },
  };
}

class GitFailed extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')}: ${stderr}`);
  }
}
