import { execFileWithParent } from './die-with-parent.js';

const run = execFileWithParent;

/**
 * The first line a program prints for `args` (stdout, else stderr: `pi --version` prints on
 * stderr), or null when it is missing or fails.
 */
export async function probeVersion(cmd: string, args: readonly string[] = ['--version']): Promise<string | null> {
  try {
    const { stdout, stderr } = await run(cmd, [...args], { timeout: 15_000 });
    return (stdout || stderr).trim().split('\n')[0] ?? '';
  } catch {
    return null;
  }
}
