import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InfraError } from '../errors.js';
import { parseSemver } from './harnesses/parse-version.js';
import type { Harness } from './harnesses/types.js';
import { execFileWithParent } from '../util/index.js';

const run = execFileWithParent;

/**
 * Where harnesses are installed: `$BAKEOFF_HARNESS_DIR`, else /var/lib/bakeoff/harnesses. Each
 * pinned version gets its own npm prefix (`<root>/<harness>-<version>`), so versions never mix
 * and a run can say exactly which one it drove. The folder must be readable by the sandbox's
 * unprivileged uid, which is why it is not under a home folder.
 */
export function harnessRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.BAKEOFF_HARNESS_DIR ? path.resolve(env.BAKEOFF_HARNESS_DIR) : '/var/lib/bakeoff/harnesses';
}

export function installDirOf(harness: Harness, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(harnessRoot(env), `${harness.name}-${harness.version}`);
}

export function binOf(harness: Harness, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(installDirOf(harness, env), harness.bin);
}

/** The version the installed CLI reports about itself, or null when it is not installed or does not start. */
export async function installedVersion(harness: Harness, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const bin = binOf(harness, env);
  if (!existsSync(bin)) return null;
  const home = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-version-')); // whatever the CLI writes at start goes here
  try {
    const { stdout, stderr } = await run(bin, [...versionArgsOf(harness)], { timeout: 30_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } });
    return parseVersionOf(harness, `${stdout}\n${stderr}`);
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return parseVersionOf(harness, `${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/**
 * Installs the pinned version from npm into its own prefix (into a temp folder first, renamed
 * into place, so an interrupted install never looks installed). Returns the install folder.
 */
export async function installHarness(harness: Harness, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = installDirOf(harness, env);
  if (existsSync(path.join(dir, harness.bin))) return dir;
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    await run('npm', ['install', '--prefix', tmp, '--no-audit', '--no-fund', '--loglevel=error', `${harness.npmPackage}@${harness.version}`], {
      timeout: 15 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
      tree: true, // npm runs install scripts: they die with bakeoff too
    });
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    const e = error as { stderr?: string; message: string };
    throw new InfraError(`npm install ${harness.npmPackage}@${harness.version} failed: ${(e.stderr || e.message).trim().slice(-2000)}`);
  }
  await chmod(tmp, 0o755);
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
  return dir;
}

/** What makes the harness's CLI print its version. */
export function versionArgsOf(harness: Harness): readonly string[] {
  return harness.versionArgs ?? ['--version'];
}

/** The version in what the CLI printed for {@link versionArgsOf}. */
export function parseVersionOf(harness: Harness, output: string): string | null {
  return (harness.parseVersion ?? parseSemver)(output);
}
