import { createRequire } from 'node:module';
import type { Task } from '../suite/index.js';
import { probeVersion } from '../util/index.js';

/** A toolchain whose version a run records when the suite's tasks use it. */
export type Toolchain = 'python' | 'cargo';

/** What each toolchain's version is asked of. */
const PROGRAMS: Readonly<Record<Toolchain, string>> = { python: 'python3', cargo: 'cargo' };

/**
 * The toolchains the tasks run on: Python for Python tasks, pytest reports and generated checks
 * (their generators are Python); cargo for Rust tasks and cargo reports. Node is bakeoff's own.
 */
export function toolchainsOf(tasks: readonly Pick<Task, 'manifest'>[]): Toolchain[] {
  const used = new Set<Toolchain>();
  for (const { manifest } of tasks) {
    if (manifest.language === 'python' || manifest.grading === 'checks' || manifest.test?.format === 'pytest') used.add('python');
    if (manifest.language === 'rust' || manifest.test?.format === 'cargo') used.add('cargo');
  }
  return (['python', 'cargo'] as const).filter((t) => used.has(t));
}

/**
 * Versions of the runtimes tasks run on, recorded with every run (comparability): bakeoff,
 * node, bwrap, QuickJS, the platform, and the `toolchains` the suite's tasks use (default both),
 * asked all at once. A toolchain no task uses is not asked (and not recorded).
 */
export async function runtimeVersions(bakeoffVersion: string, toolchains: readonly Toolchain[] = ['python', 'cargo']): Promise<Record<string, string>> {
  const version = async (cmd: string): Promise<string> => (await probeVersion(cmd)) ?? 'not found';
  const [bwrap, ...found] = await Promise.all([version('bwrap'), ...toolchains.map((t) => version(PROGRAMS[t]))]);
  return {
    bakeoff: bakeoffVersion,
    node: process.version,
    ...Object.fromEntries(toolchains.map((t, i) => [t, found[i]!])),
    bwrap: bwrap!,
    quickjs: `quickjs-emscripten ${quickjsVersion()}`,
    platform: `${process.platform}-${process.arch}`,
  };
}

function quickjsVersion(): string {
  try {
    return (createRequire(import.meta.url)('quickjs-emscripten/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
