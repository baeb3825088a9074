import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

/** How long a file waits for another to build a shared suite before it gives up. */
const WAIT_MS = 20 * 60_000;

/**
 * A private copy, in `into`, of the suite `name` as `build` makes it — built once per test run
 * and shared by every test file that asks (test/setup/shared-suites.ts): the first file to ask
 * builds it (in a folder of its own, then renamed into place); the others, in other workers,
 * wait for it. A failed build fails every file that asks, with the build's error.
 */
export async function sharedSuite(name: string, build: (dir: string) => Promise<void>, into: string): Promise<string> {
  const root = inject('sharedSuitesDir');
  const ready = path.join(root, name);
  const failed = path.join(root, `${name}.failed`);
  if (await claim(path.join(root, `${name}.claim`))) {
    const building = path.join(root, `${name}.building`, path.basename(into));
    try {
      await build(building);
      await rename(building, ready);
    } catch (error) {
      await writeFile(failed, String((error as Error).message ?? error));
      throw error;
    }
  } else {
    const deadline = performance.now() + WAIT_MS;
    while (!existsSync(ready)) {
      if (existsSync(failed)) throw new Error(`the shared suite ${name} could not be built (in another test file): ${await readFile(failed, 'utf8')}`);
      if (performance.now() > deadline) throw new Error(`the shared suite ${name} was not built within ${WAIT_MS / 60_000} min (another test file builds it)`);
      await sleep(1000);
    }
  }
  await cp(ready, into, { recursive: true });
  return into;
}

/** mkdir is atomic: exactly one caller gets to build. */
async function claim(dir: string): Promise<boolean> {
  try {
    await mkdir(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
