import path from 'node:path';
import { fileStamp, type FileStamp, type ProbeCache } from '../util/index.js';
import { levelSourceOf, type LevelSource } from './effort-levels.js';
import type { Harness } from './harnesses/types.js';
import { binOf, installDirOf, probeInstalled, type InstalledProbe } from './install-harness.js';

/*
 * A harness CLI's answers that only change when the CLI is installed again: the version it
 * reports and, for a catalog the CLI compiles in (Codex's bundled one), its model catalog.
 * Starting a Node CLI to ask costs seconds on a busy machine, for every `bakeoff agents` and
 * every bake; the answers are kept in the probe cache under the install's stamp.
 */

/**
 * What an install's answers depend on: the folder, the executable (followed to its real file)
 * and npm's record of every package it installed there (`node_modules/.package-lock.json`,
 * rewritten by every install or update, e.g. of Codex's native binary beside its launcher).
 * Stamps carry inode and change time: npm gives installed files a fixed mtime.
 */
export function installStamp(harness: Harness, env: NodeJS.ProcessEnv = process.env): { readonly bin: FileStamp | null; readonly packages: FileStamp | null; readonly dir: string } {
  const dir = installDirOf(harness, env);
  return { dir, bin: fileStamp(binOf(harness, env)), packages: fileStamp(path.join(dir, 'node_modules', '.package-lock.json')) };
}

/**
 * {@link probeInstalled}, kept under the install's stamp. Only an `installed` answer is kept:
 * "missing" and "did not answer in time" are asked again next time, so a busy machine can never
 * leave an installed CLI reported missing (decision 011), and a kept answer is what the CLI
 * printed about itself for exactly these files.
 */
export async function cachedProbeInstalled(harness: Harness, env: NodeJS.ProcessEnv, probes: ProbeCache): Promise<InstalledProbe> {
  const stamp = installStamp(harness, env);
  if (stamp.bin === null) return probeInstalled(harness, env);
  return probes.remember<InstalledProbe>(`version-${harness.name}-${harness.version}`, stamp, () => probeInstalled(harness, env), (probe) => probe.kind === 'installed');
}

/**
 * {@link levelSourceOf} with the probe cache handed to the harness's catalog reader, which
 * decides what it may keep (Codex: the bundled catalog, under the install's stamp; a catalog
 * read from the user's Codex home is refreshed from the network and read every time).
 */
export function cachedLevelSource(harness: Harness, env: Readonly<Record<string, string | undefined>>, probes: ProbeCache, memo?: Map<string, Promise<LevelSource>>): Promise<LevelSource> {
  return levelSourceOf(harness, env, memo, { probes, stamp: installStamp(harness, env as NodeJS.ProcessEnv) });
}
