import { execFile } from 'node:child_process';
import { chown, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Owner, disposeScratch } from '../sandbox/index.js';

const run = promisify(execFile);

/** A report folder the tests can write into only through the files made for them. */
export interface ReportDir {
  readonly dir: string;
  /** Unmounts and removes it (after its files were read and copied). */
  dispose(): Promise<void>;
}

/**
 * Makes the report folder of one test run: when bakeoff runs as root, a tmpfs of `bytes` owned
 * by root (mode 0755), holding one empty file per name in `files`, each owned by the sandbox uid.
 * Code under test can write into those files, up to the tmpfs size, and do nothing else here:
 * it cannot add entries (a FIFO, a symlink), replace or remove the files, or fill the host's
 * disk. Without root it is a plain folder (the unsafe backend hides nothing anyway).
 */
export async function createReportDir(dir: string, options: { readonly bytes: number; readonly owner: Owner | null; readonly files: readonly string[] }): Promise<ReportDir> {
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const isRoot = process.getuid?.() === 0;
  if (isRoot) await run('mount', ['-t', 'tmpfs', '-o', `size=${options.bytes},mode=0755,uid=0,gid=0`, 'bakeoff-report', dir]);
  for (const name of options.files) {
    const file = path.join(dir, name);
    await writeFile(file, '', { mode: 0o644 });
    if (options.owner) await chown(file, options.owner.uid, options.owner.gid);
  }
  return { dir, dispose: () => disposeScratch(dir) };
}
