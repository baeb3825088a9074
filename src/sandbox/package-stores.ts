import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, copyFile, link, lstat, mkdir, mkdtemp, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * The package folders of the machine's toolchains (Python site-packages, node's global modules)
 * and what of them a sandbox shows: only the test runners and package managers the tasks rely on
 * from the machine — pytest and what it needs, pip, setuptools and wheel; npm, corepack, yarn and
 * pnpm — never the rest. Everything else installed there (flask, requests, boto3, a global
 * TypeScript …) was installed by nobody's task setup and may be a newer release of a task's own
 * code, with its fix inside (decision 013). Each folder that holds more than that is shown in the
 * sandbox as a view of it: a folder under PACKAGE_VIEWS with only the kept entries, hard links of
 * their files, made once per machine and content, mounted over the folder read-only — one mount
 * per folder (binding each entry back into a tmpfs cost half a second per sandbox).
 */

/** Python distributions every sandbox keeps, with the ones they require (pytest's, say). */
export const KEPT_PYTHON = ['pytest', 'pip', 'setuptools', 'wheel'] as const;
/** Global node modules every sandbox keeps: node's package managers. */
export const KEPT_NODE = ['npm', 'corepack', 'yarn', 'pnpm'] as const;

export type StoreKind = 'python site-packages' | 'node global modules';

/** One package folder, as the host sees it, and what a sandbox keeps of it. */
export interface StoreView {
  readonly path: string;
  readonly kind: StoreKind;
  /** Distributions (Python) or modules (node) installed in it, by name, sorted. */
  readonly installed: readonly string[];
  /** Those of them a sandbox can read. */
  readonly readable: readonly string[];
  /** Entries of the folder bound back into the sandbox (folders, modules, `.pth` files, metadata). */
  readonly keep: readonly string[];
}

/** A package folder shown in a sandbox as `source`, a view of it with only its kept entries. */
export interface PackageMask {
  /** The folder as the sandbox (and the host) sees it. */
  readonly target: string;
  /** Its view under PACKAGE_VIEWS. */
  readonly source: string;
}

/** Where the views of package folders are kept (root-owned, readable by the sandbox's uid). */
export const PACKAGE_VIEWS = '/var/lib/bakeoff/package-views';

/** The package folders under a mounted root: `/usr`, `~/.pyenv`, `~/.nvm`, a PATH entry's parent … */
export function findPackageStores(root: string): { path: string; kind: StoreKind }[] {
  const found: { path: string; kind: StoreKind }[] = [];
  const python = (lib: string): void => {
    for (const version of dirs(lib).filter((d) => /^python\d/.test(d))) {
      for (const name of ['site-packages', 'dist-packages']) {
        const dir = path.join(lib, version, name);
        if (existsSync(dir)) found.push({ path: dir, kind: 'python site-packages' });
      }
    }
    const node = path.join(lib, 'node_modules');
    if (existsSync(node)) found.push({ path: node, kind: 'node global modules' });
  };
  // /usr/lib/python3/dist-packages, /usr/local/lib/python3.11/dist-packages, /usr/lib/node_modules,
  // ~/.pyenv/versions/3.11.7/lib/python3.11/site-packages, its virtualenvs (versions/3.11.7/envs/x),
  // ~/.nvm/versions/node/v20.1.0/lib/node_modules, ~/.volta/tools/image/node/20.1.0/lib/node_modules
  python(path.join(root, 'lib'));
  python(path.join(root, 'local/lib'));
  for (const version of dirs(path.join(root, 'versions'))) {
    const at = path.join(root, 'versions', version);
    python(path.join(at, 'lib'));
    for (const env of dirs(path.join(at, 'envs'))) python(path.join(at, 'envs', env, 'lib'));
    for (const node of dirs(at)) if (/^v\d/.test(node)) python(path.join(at, node, 'lib'));
  }
  for (const version of dirs(path.join(root, 'tools/image/node'))) python(path.join(root, 'tools/image/node', version, 'lib'));
  return found;
}

/** What a sandbox keeps of one package folder. */
export function storeView(dir: string, kind: StoreKind): StoreView {
  return kind === 'node global modules' ? nodeView(dir) : pythonView(dir);
}

/**
 * A view for every package folder under the mounted roots (host paths) that holds anything not
 * kept: made under `viewsDir` if it is not there yet, keyed by the folder, its kept entries and
 * their modification times, so an upgrade on the host makes a new view.
 */
export async function packageMasks(roots: readonly string[], viewsDir = PACKAGE_VIEWS): Promise<PackageMask[]> {
  const masks: PackageMask[] = [];
  for (const root of roots) {
    for (const store of findPackageStores(root)) {
      const view = storeView(store.path, store.kind);
      // nothing to hide: no view (a folder that holds only kept packages, a README and bytecode)
      if (entries(store.path).every((entry) => view.keep.includes(entry) || /^(README(\.txt)?|__pycache__)$/.test(entry))) continue;
      masks.push({ target: store.path, source: await makeView(store.path, view.keep, viewsDir) });
    }
  }
  return masks;
}

async function makeView(dir: string, keep: readonly string[], viewsDir: string): Promise<string> {
  const stamps = await Promise.all(keep.map(async (entry) => `${entry} ${(await lstat(path.join(dir, entry))).mtimeMs}`));
  const name = createHash('sha256').update(JSON.stringify([dir, stamps])).digest('hex').slice(0, 24);
  return buildOnce(viewsDir, name, async (making) => {
    for (const entry of keep) await linkTree(path.join(dir, entry), path.join(making, entry));
  });
}

/**
 * `<viewsDir>/<name>`, filled by `fill` into a temporary folder and renamed into place unless it
 * is there already (so a view is made once, whole, even when two bakeoffs make it at once).
 */
export async function buildOnce(viewsDir: string, name: string, fill: (making: string) => Promise<void>): Promise<string> {
  const view = path.join(viewsDir, name);
  if (existsSync(view)) return view;
  await mkdir(viewsDir, { recursive: true, mode: 0o755 });
  // what a bakeoff killed while making a view left (an hour is far longer than any view takes)
  for (const entry of await readdir(viewsDir)) {
    if (!entry.startsWith('.making-')) continue;
    const left = path.join(viewsDir, entry);
    const made = await lstat(left).catch(() => null);
    if (made !== null && Date.now() - made.mtimeMs > 3_600_000) await rm(left, { recursive: true, force: true });
  }
  const making = await mkdtemp(path.join(viewsDir, '.making-'));
  try {
    await fill(making);
    await chmod(making, 0o755);
    // another bakeoff may have made the same view meanwhile: either one will do
    await rename(making, view).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(view)) throw error;
    });
  } finally {
    await rm(making, { recursive: true, force: true });
  }
  return view;
}

/** A copy of `from` at `to` made of hard links (copies where the views are on another file system). */
async function linkTree(from: string, to: string): Promise<void> {
  const stat = await lstat(from);
  if (stat.isDirectory()) {
    await mkdir(to, { mode: stat.mode & 0o777 });
    for (const entry of await readdir(from)) await linkTree(path.join(from, entry), path.join(to, entry));
    await chmod(to, stat.mode & 0o777);
  } else if (stat.isSymbolicLink()) {
    await symlink(await readlink(from), to);
  } else if (stat.isFile()) {
    await link(from, to).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EXDEV' && error.code !== 'EPERM') throw error;
      await copyFile(from, to);
      await chmod(to, stat.mode & 0o777);
    });
  }
}

function nodeView(dir: string): StoreView {
  const installed: string[] = [];
  for (const name of entries(dir)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) for (const inner of entries(path.join(dir, name))) installed.push(`${name}/${inner}`);
    else installed.push(name);
  }
  installed.sort();
  const readable = installed.filter((name) => (KEPT_NODE as readonly string[]).includes(name));
  return { path: dir, kind: 'node global modules', installed, readable, keep: readable };
}

interface Distribution {
  readonly name: string;
  /** Its metadata folder (`pytest-9.0.3.dist-info`). */
  readonly meta: string;
}

/** `Foo_Bar-1.0.dist-info` → `foo-bar` (PEP 503). */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

function pythonView(dir: string): StoreView {
  const names = entries(dir);
  const dists = new Map<string, Distribution>();
  for (const meta of names) {
    const match = /^(.+?)(?:-[^-]*)*\.(dist-info|egg-info)$/.exec(meta);
    if (match) dists.set(normalized(match[1]!), { name: normalized(match[1]!), meta });
  }
  const version = /python(\d+)\.(\d+)/.exec(dir);
  const pythonVersion = version ? [Number(version[1]), Number(version[2])] as const : null;
  // the kept distributions and, transitively, what they require that is installed here
  const readable = new Set<string>();
  const queue = KEPT_PYTHON.map(normalized).filter((n) => dists.has(n));
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (readable.has(name)) continue;
    readable.add(name);
    for (const need of requires(path.join(dir, dists.get(name)!.meta), pythonVersion)) if (dists.has(need) && !readable.has(need)) queue.push(need);
  }
  const keep = new Set<string>();
  for (const name of readable) {
    const dist = dists.get(name)!;
    keep.add(dist.meta);
    for (const entry of topLevelEntries(dir, dist, names)) keep.add(entry);
  }
  return { path: dir, kind: 'python site-packages', installed: [...dists.keys()].sort(), readable: [...readable].sort(), keep: [...keep].sort() };
}

/**
 * The distributions a metadata folder requires, leaving out extras and other platforms; a
 * `python_version` marker is weighed against the folder's own Python when it is known.
 */
export function requires(meta: string, pythonVersion: readonly [number, number] | null): string[] {
  const lines: { name: string; marker: string }[] = [];
  const metadata = read(path.join(meta, 'METADATA')) ?? read(path.join(meta, 'PKG-INFO'));
  for (const line of (metadata ?? '').split('\n')) {
    const m = /^Requires-Dist:\s*([A-Za-z0-9][A-Za-z0-9._-]*)[^;]*(?:;(.*))?$/.exec(line.trim());
    if (m) lines.push({ name: m[1]!, marker: m[2] ?? '' });
  }
  // an egg-info's requires.txt: the lines before its first [extra] or [:marker] section
  const eggRequires = read(path.join(meta, 'requires.txt'));
  if (eggRequires !== null) {
    for (const line of eggRequires.split('\n')) {
      if (line.trim().startsWith('[')) break;
      const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line);
      if (m) lines.push({ name: m[1]!, marker: '' });
    }
  }
  return lines.filter((l) => markerHolds(l.marker, pythonVersion)).map((l) => normalized(l.name));
}

function markerHolds(marker: string, pythonVersion: readonly [number, number] | null): boolean {
  if (/\bextra\s*==/.test(marker)) return false;
  if (/(sys_platform|platform_system|os_name)\s*==\s*["'](win32|Windows|cygwin|nt|darwin|Darwin)["']/.test(marker)) return false;
  const m = /python_version\s*(<=|>=|==|!=|<|>)\s*["'](\d+)\.(\d+)["']/.exec(marker);
  if (m && pythonVersion && !/\bor\b/.test(marker)) {
    const diff = pythonVersion[0] - Number(m[2]) || pythonVersion[1] - Number(m[3]);
    const holds = { '<': diff < 0, '<=': diff <= 0, '>': diff > 0, '>=': diff >= 0, '==': diff === 0, '!=': diff !== 0 }[m[1] as '<'];
    if (!holds) return false;
  }
  return true;
}

/**
 * The entries of the site-packages folder a distribution installed: the first part of each
 * path of its RECORD (or an egg-info's installed-files.txt), else its top_level.txt names, else
 * its own name. `__pycache__` is left out: it holds the bytecode of every top-level module.
 */
function topLevelEntries(dir: string, dist: Distribution, names: readonly string[]): string[] {
  const meta = path.join(dir, dist.meta);
  const out = new Set<string>();
  const record = read(path.join(meta, 'RECORD'));
  const installedFiles = read(path.join(meta, 'installed-files.txt'));
  const paths = record !== null
    ? record.split('\n').map((line) => (line.startsWith('"') ? line.slice(1, line.indexOf('"', 1)) : line.split(',')[0]!))
    : installedFiles !== null
      ? installedFiles.split('\n').map((line) => path.posix.normalize(path.posix.join(dist.meta, line.trim())))
      : [];
  for (const p of paths) {
    const first = p.split('/')[0]!;
    if (first === '' || first === '..' || first === '.' || first === '__pycache__') continue;
    if (names.includes(first)) out.add(first);
  }
  if (out.size === 0) {
    const top = read(path.join(meta, 'top_level.txt'));
    const modules = top !== null ? top.split('\n').map((l) => l.trim()).filter(Boolean) : [dist.name.replace(/-/g, '_')];
    for (const module of modules) {
      for (const name of names) if (name === module || name === `${module}.py` || (name.startsWith(`${module}.`) && /\.(so|pyd|pth)$/.test(name))) out.add(name);
    }
  }
  return [...out];
}

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The folders in `dir`, by name; none where it cannot be read. */
export function dirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}
