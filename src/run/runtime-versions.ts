import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Versions of the runtimes tasks run on, recorded with every run (comparability). */
export async function runtimeVersions(bakeoffVersion: string): Promise<Record<string, string>> {
  const probe = async (cmd: string, args: string[]): Promise<string> => {
    try {
      const { stdout, stderr } = await run(cmd, args, { timeout: 10_000 });
      return (stdout || stderr).trim().split('\n')[0] ?? 'unknown';
    } catch {
      return 'not found';
    }
  };
  const [python, cargo, bwrap] = await Promise.all([
    probe('python3', ['--version']),
    probe('cargo', ['--version']),
    probe('bwrap', ['--version']),
  ]);
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
