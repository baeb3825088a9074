import { InfraError } from '../errors.js';
import { execFileWithParent } from '../util/index.js';

const run = execFileWithParent;

const INSTALL: Readonly<Record<string, string>> = {
  bwrap: 'apt-get install bubblewrap',
  faketime: 'apt-get install faketime',
  git: 'apt-get install git',
};

/** Fails with what to install when a program bakeoff needs is missing. */
export async function requireTools(names: readonly string[]): Promise<void> {
  const missing: string[] = [];
  await Promise.all(
    names.map(async (name) => {
      try {
        await run('sh', ['-c', `command -v ${name}`]);
      } catch {
        missing.push(name);
      }
    }),
  );
  if (missing.length > 0) {
    const how = missing.map((m) => `${m} (${INSTALL[m] ?? 'install it'})`).join(', ');
    throw new InfraError(`bakeoff needs programs that are not installed: ${how}`);
  }
}
