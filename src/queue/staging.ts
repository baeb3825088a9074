import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { currentProcess, holdResource, judgeProcess, pidExists, type ProcessIdentity } from '../util/index.js';

/*
 * What a worker writes in its cache folder besides the bundles it unpacks:
 *
 *   <cache>/fleet-staging/<worker>-<pid>-<n>/artifacts/   one attempt's artifacts, packed and sent, then removed
 *   <cache>/fleet-staging/<worker>-<pid>-<n>.owner         who made it (pid, start tick, boot, host)
 *   <cache>/fleet-bundles/<hash>-<sha>.tmp-<pid>-<ms>/     a bundle being unpacked (renamed into place when whole)
 *   <cache>/fleet-files/<sha>.tmp-<pid>-<ms>/              the same for the agent specs' files
 *
 * A killed worker leaves them; the next worker on the machine removes those of dead owners as it
 * starts, and `bakeoff doctor` lists them (`--clean` removes them).
 */

/** A staging folder of one attempt, held for a stop to remove; `done()` removes it. */
export async function makeStaging(cacheDir: string, label: string): Promise<{ readonly dir: string; done(): Promise<void> }> {
  const base = path.join(cacheDir, 'fleet-staging');
  await mkdir(base, { recursive: true });
  const dir = path.join(base, `${label.replace(/[^\w.-]/g, '_')}-${process.pid}-${++made}`);
  await writeFile(`${dir}.owner`, JSON.stringify(currentProcess()));
  await mkdir(dir, { recursive: true });
  const remove = async (): Promise<void> => {
    await rm(dir, { recursive: true, force: true });
    await rm(`${dir}.owner`, { force: true });
  };
  const release = holdResource(remove);
  return {
    dir,
    done: async () => {
      release();
      await remove();
    },
  };
}

let made = 0;

/** A folder a fleet worker left in a cache folder, and whether its owner still runs. */
export interface FleetLeftover {
  readonly path: string;
  readonly what: 'staging' | 'unpacking';
  readonly owner: 'alive' | 'gone' | 'other-host' | 'unknown';
  readonly pid?: number;
}

/** Every staging and half-unpacked folder of fleet workers under `cacheDir`. */
export async function findFleetLeftovers(cacheDir: string): Promise<FleetLeftover[]> {
  const found: FleetLeftover[] = [];
  const staging = path.join(cacheDir, 'fleet-staging');
  for (const name of await readdir(staging).catch(() => [] as string[])) {
    if (name.endsWith('.owner')) continue;
    const dir = path.join(staging, name);
    if (!(await stat(dir).catch(() => null))?.isDirectory()) continue;
    const owner = await readOwner(`${dir}.owner`);
    found.push({ path: dir, what: 'staging', owner: owner === null ? 'unknown' : judgeProcess(owner), ...(owner ? { pid: owner.pid } : {}) });
  }
  for (const sub of ['fleet-bundles', 'fleet-files']) {
    for (const name of await readdir(path.join(cacheDir, sub)).catch(() => [] as string[])) {
      const m = /\.tmp-(\d+)-\d+$/.exec(name);
      if (!m) continue;
      const pid = Number(m[1]);
      found.push({ path: path.join(cacheDir, sub, name), what: 'unpacking', owner: pid === process.pid || pidExists(pid) ? 'alive' : 'gone', pid });
    }
  }
  return found;
}

/** Removes the leftovers whose owner is gone (a live or another host's never). */
export async function cleanFleetLeftovers(leftovers: readonly FleetLeftover[]): Promise<FleetLeftover[]> {
  const removed: FleetLeftover[] = [];
  for (const leftover of leftovers.filter((l) => l.owner === 'gone')) {
    await rm(leftover.path, { recursive: true, force: true });
    if (leftover.what === 'staging') await rm(`${leftover.path}.owner`, { force: true });
    removed.push(leftover);
  }
  return removed;
}

/** One line naming a leftover, as `doctor` shows it. */
export function describeFleetLeftover(leftover: FleetLeftover): string {
  const owner = leftover.owner === 'unknown' ? 'no owner file' : `owner pid ${leftover.pid}, ${leftover.owner === 'alive' ? 'running' : leftover.owner}`;
  return `${leftover.path} (${leftover.what === 'staging' ? "a fleet worker's staging folder" : 'a bundle a fleet worker was unpacking'}; ${owner})`;
}

async function readOwner(file: string): Promise<ProcessIdentity | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<ProcessIdentity>;
    return typeof parsed.pid === 'number' && typeof parsed.startTicks === 'string' ? (parsed as ProcessIdentity) : null;
  } catch {
    return null;
  }
}
