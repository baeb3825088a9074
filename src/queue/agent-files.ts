import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { localFile, type HostFile } from '../agents/index.js';
import { UserError } from '../errors.js';
import type { AgentFiles } from './jobs.js';
import { packFolder } from './tarball.js';

/**
 * The files a bake's agent specs name travel in a tarball the coordinator signs (by its sha256,
 * in each job), so a worker never reads a path a job names from its own disk (decision 014).
 */

/** Above this, the files are not sent through Redis: a user error naming the largest. */
export const MAX_AGENT_FILES_BYTES = 256 * 1024 * 1024;

/** A coordinator's {@link HostFile}: a local bake's, remembering every file it handed out. */
export function recordingHostFile(): { readonly hostFile: HostFile; files(): readonly string[] } {
  const seen = new Set<string>();
  return {
    hostFile: (absolutePath) => {
      const local = localFile(absolutePath);
      if (local !== null) seen.add(absolutePath);
      return local;
    },
    files: () => [...seen].sort(),
  };
}

/** The files as one tarball (`<n>/<basename>` each) and the map a job carries; null when there are none. */
export async function packAgentFiles(files: readonly string[]): Promise<{ readonly bytes: Buffer; readonly files: AgentFiles } | null> {
  if (files.length === 0) return null;
  let total = 0;
  let largest = { file: '', bytes: 0 };
  for (const file of files) {
    const { size } = await stat(file);
    total += size;
    if (size > largest.bytes) largest = { file, bytes: size };
  }
  if (total > MAX_AGENT_FILES_BYTES) {
    throw new UserError(`--queue: the files the agent specs name add up to ${mib(total)} (the largest: ${largest.file}, ${mib(largest.bytes)}), more than the ${mib(MAX_AGENT_FILES_BYTES)} a fleet sends its workers through Redis`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-agent-files-'));
  try {
    const paths: Record<string, string> = {};
    for (const [i, file] of files.entries()) {
      const name = `${i}/${path.basename(file)}`;
      await mkdir(path.join(dir, String(i)));
      await copyFile(file, path.join(dir, name));
      paths[file] = name;
    }
    const packed = await packFolder(dir);
    return { bytes: packed.bytes, files: { sha256: packed.sha256, paths } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A worker's {@link HostFile}: the unpacked copy of a path the coordinator bundled, and nothing else. */
export function bundledHostFile(dir: string, files: AgentFiles | undefined): HostFile {
  return (absolutePath) => {
    const name = files?.paths[absolutePath];
    if (name === undefined || !/^\d+\/[^/]+$/.test(name) || name.endsWith('/..') || name.endsWith('/.')) return null;
    return path.join(dir, name);
  };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
