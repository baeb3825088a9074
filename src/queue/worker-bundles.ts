import path from 'node:path';
import type { Redis } from 'ioredis';
import { sha256 } from '../util/index.js';
import { keys, type RunJob } from './jobs.js';
import { unpackFolder } from './tarball.js';

/** A bundle unpacked here, or why the job that names it is refused. */
export type BundleDir = { readonly dir: string } | { readonly refused: string };

/**
 * The bundles a worker's jobs name, each fetched from Redis, checked against the sha256 the
 * (sealed) job signs, and unpacked once per machine into a folder named by that digest — bytes
 * that are not the signed ones are never unpacked, and never take a good bundle's place.
 */
export interface BundleCache {
  /** The suite bundle of a job. */
  suite(job: RunJob): Promise<BundleDir>;
  /** The agent specs' files of a job (`dir: null` when its specs name none). */
  files(job: RunJob): Promise<{ readonly dir: string | null } | { readonly refused: string }>;
}

export function createBundleCache(redis: Redis, cacheDir: string): BundleCache {
  const unpacked = new Map<string, Promise<BundleDir>>();
  const fetch = (what: string, key: string, signed: string, dir: string): Promise<BundleDir> => {
    const known = unpacked.get(dir);
    if (known) return known;
    const made = (async (): Promise<BundleDir> => {
      const bytes = await redis.getBuffer(key);
      if (!bytes) return { refused: `${what} ${signed.slice(0, 12)}… is not in the queue's Redis (expired or cleared): run the coordinator again` };
      const actual = sha256(bytes);
      if (actual !== signed) {
        return { refused: `${what} in the queue's Redis is not the one its coordinator signed (sha256 ${actual.slice(0, 12)}…, signed ${signed.slice(0, 12)}…): replaced or damaged in Redis` };
      }
      // content-addressed: shared by every worker on this machine
      await unpackFolder(bytes, dir, true);
      return { dir };
    })();
    unpacked.set(dir, made);
    // a refusal or a failure is looked at again next time (the coordinator may publish it again)
    void made.then((r) => 'refused' in r && unpacked.delete(dir), () => unpacked.delete(dir));
    return made;
  };
  return {
    suite: (job) => fetch(`the suite bundle of ${job.suiteId}`, keys.bundle(job.bundleSha256), job.bundleSha256, path.join(cacheDir, 'fleet-bundles', `${job.suiteHash}-${job.bundleSha256.slice(0, 16)}`)),
    files: async (job) => (job.files ? fetch("the agent specs' files", keys.files(job.files.sha256), job.files.sha256, path.join(cacheDir, 'fleet-files', job.files.sha256.slice(0, 32))) : { dir: null }),
  };
}
