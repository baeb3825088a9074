import { createRequire } from 'node:module';
import { probeVersion } from '../util/index.js';

/** Versions of the runtimes tasks run on, recorded with every run (comparability). */
export async function runtimeVersions(bakeoffVersion: string): Promise<Record<string, string>> {
  const version = async (cmd: string): Promise<string> => (await probeVersion(cmd)) ?? 'not found';
  const [python, cargo, bwrap] = await Promise.all([version('python3'), version('cargo'), version('bwrap')]);
  return {
    bakeoff: bakeoffVersion,
    node: process.version,
    python,
    cargo,
    bwrap,
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
