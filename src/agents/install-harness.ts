import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InfraError } from '../errors.js';
import { parseSemver } from './harnesses/parse-version.js';
import type { Harness } from './harnesses/types.js';
import { execFileWithParent, probeProgram } from '../util/index.js';

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

/** Whether a harness's pinned CLI is installed, as its own `--version` says (decision 011). */
export type InstalledProbe =
  | { readonly kind: 'installed'; readonly version: string }
  /** Not in its install folder (or it printed no version: a broken install). */
  | { readonly kind: 'missing' }
  /** Installed, but it did not answer `--version` in time, twice: a busy machine, not a missing CLI. */
  | { readonly kind: 'no-answer'; readonly seconds: number };

/**
 * Asks the installed CLI for its version: 60 s, then once more with 120 s (at load 80 on two
 * CPUs, five probes at once, opencode and pi took over 90 s to print theirs; quiet, 1–3 s). A CLI
 * that does not answer is `no-answer` ("did not answer in 120 s (the machine is busy?)"), never
 * "not installed".
 */
export async function probeInstalled(harness: Harness, env: NodeJS.ProcessEnv = process.env): Promise<InstalledProbe> {
  const bin = binOf(harness, env);
  if (!existsSync(bin)) return { kind: 'missing' };
  const home = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-version-')); // whatever the CLI writes at start goes here
  try {
    const answer = await probeProgram(bin, versionArgsOf(harness), { timeoutMs: 60_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } });
    if (answer.kind === 'no-answer') return answer;
    const version = answer.kind === 'missing' ? null : parseVersionOf(harness, answer.output);
    return version === null ? { kind: 'missing' } : { kind: 'installed', version };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** The version the installed CLI reports about itself, or null when it is not installed, does not start or does not answer ({@link probeInstalled} tells which). */
export async function installedVersion(harness: Harness, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const probe = await probeInstalled(harness, env);
  return probe.kind === 'installed' ? probe.version : null;
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
