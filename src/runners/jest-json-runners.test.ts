import { describe, expect, it } from 'vitest';
import type { TestRunner } from './types.js';
import { parseGolden } from './golden-reports.test-support.js';
import { jestRunner } from './jest.js';
import { vitestRunner } from './vitest.js';

// jest and vitest write the same JSON report (jest-json-report.ts reads both); each is checked
// against its own golden report, captured from the real tool.
const cases: { name: string; runner: TestRunner; bare: string; flags: string; crashId: string }[] = [
  { name: 'jest', runner: jestRunner, bare: 'npx jest', flags: "--ci --no-cache --json '--outputFile=/tmp/report dir/jest.json'", crashId: '__tests__/crash.js' },
  {
    name: 'vitest',
    runner: vitestRunner,
    bare: 'npx vitest run',
    flags: "--reporter=default --reporter=json '--outputFile=/tmp/report dir/vitest.json'",
    crashId: 'checks/crash.check.js',
  },
];

describe.each(cases)('$name runner', ({ name, runner, bare, flags, crashId }) => {
  it('adds the JSON report, quoted, after the bare command and records the repo root first', () => {
    const { command } = runner.instrument(bare, { reportDir: '/tmp/report dir' });
    expect(command).toBe(`{ pwd; pwd -P; } > '/tmp/report dir/root.txt'; ${bare} ${flags}`);
  });

  it('names a crashed test file by its path, with the error as message', async () => {
    const { tests } = await parseGolden(runner, name);
    expect(tests.find((t) => t.id === crashId)).toMatchObject({ status: 'error', message: expect.stringContaining('crash while loading the test file') });
  });
});

describe('vitest runner and its module cache', () => {
  it('turns the on-disk module cache off when the prepared repo\'s vitest has one, and leaves a vitest without it alone', async () => {
    const { mkdir, mkdtemp, writeFile } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const repo = async (cac: string): Promise<string> => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-vitest-cache-'));
      await mkdir(path.join(dir, 'node_modules/vitest/dist/chunks'), { recursive: true });
      await writeFile(path.join(dir, 'node_modules/vitest/dist/chunks/cac.Ab12.js'), cac);
      return dir;
    };
    const v4 = await repo('experimental: { fsModuleCache: { description: "…" } }');
    expect(vitestRunner.instrument('npx vitest run', { reportDir: '/r', configSource: v4 }).command).toContain('--reporter=json --experimental.fsModuleCache=false ');
    const v3 = await repo('reporters: {}');
    expect(vitestRunner.instrument('npx vitest run', { reportDir: '/r', configSource: v3 }).command).not.toContain('fsModuleCache');
  });
});
