import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder for this test run only, where test files share suites built once (test/e2e/shared-suite.ts). */
    sharedSuitesDir: string;
  }
}

/**
 * Vitest globalSetup of the projects that ask for it (test/setup/tiers.ts `sharedSuites`): one
 * empty folder per `vitest run` — the same for every project of the run (the folder is named
 * by the vitest process) — handed to every test file, in which the first file that needs an
 * expensive suite (validated with the built CLI) builds it and the others wait for it and copy
 * it. Per run, never across runs: each `npm test` validates with the CLI it just built.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = path.join(os.tmpdir(), `bakeoff-shared-suites-${process.pid}`);
  await mkdir(dir, { recursive: true });
  project.provide('sharedSuitesDir', dir);
  return async () => {
    if (process.env.BATTERY_KEEP) console.error(`shared suites: kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  };
}
