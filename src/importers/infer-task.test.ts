import { describe, expect, it } from 'vitest';
import { inferTask } from './infer-task.js';
import { testPathRule } from './test-paths.js';

describe('testPathRule', () => {
  it('takes test folders and test file names by default, and only the globs when given', () => {
    const rule = testPathRule();
    for (const file of ['test/a.js', 'pkg/tests/x.py', 'src/__tests__/a.ts', 'src/a.test.ts', 'lib/a.spec.mjs', 'test_calc.py', 'calc_test.py', 'e2e/flow.ts', 'test/fixtures/data.json']) {
      expect(rule(file), file).toBe(true);
    }
    for (const file of ['src/a.ts', 'src/testing-utils.ts', 'contest.py', 'src/lib.rs', 'latest/a.js']) expect(rule(file), file).toBe(false);
    const globs = testPathRule(['checks/**']);
    expect(globs('checks/a.js')).toBe(true);
    expect(globs('test/a.js')).toBe(false);
  });
});

describe('inferTask', () => {
  const facts = (paths: string[], changedCode: string[], packageJson: object | null = null, texts: Record<string, string> = {}) => ({
    paths: new Set(paths),
    changedCode,
    packageJson,
    texts: new Map(Object.entries(texts)),
  });

  it('runs pnpm and yarn through npx at the version packageManager pins, else the lockfile format\'s, and says so', () => {
    const pinned = inferTask(facts(['package.json', 'pnpm-lock.yaml'], ['src/a.ts'], { packageManager: 'pnpm@9.15.9+sha512.abc' }));
    expect(pinned.setup).toEqual({ value: 'npx --yes pnpm@9.15.9 install --frozen-lockfile', why: 'package.json packageManager pnpm@9.15.9 and pnpm-lock.yaml (pnpm 9.15.9 through npx: the machine need not have pnpm)' });
    const byLock = (lockfileVersion: string) => inferTask(facts(['package.json', 'pnpm-lock.yaml'], ['a.js'], {}, { 'pnpm-lock.yaml': `lockfileVersion: '${lockfileVersion}'\n` })).setup.value;
    expect([byLock('9.0'), byLock('6.0'), byLock('5.4')]).toEqual(['npx --yes pnpm@9 install --frozen-lockfile', 'npx --yes pnpm@8 install --frozen-lockfile', 'npx --yes pnpm@7 install --frozen-lockfile']);
    const berry = inferTask(facts(['package.json', 'yarn.lock'], ['a.js'], { packageManager: 'yarn@4.5.0' }));
    expect(berry.setup.value).toBe('npx --yes -p @yarnpkg/cli-dist@4.5.0 yarn install --immutable');
    const berryLock = inferTask(facts(['package.json', 'yarn.lock'], ['a.js'], {}, { 'yarn.lock': '# generated\n\n__metadata:\n  version: 8\n' }));
    expect(berryLock.setup.value).toBe('npx --yes -p @yarnpkg/cli-dist@4 yarn install --immutable');
    // packageManager wins over a stray lockfile of another manager
    expect(inferTask(facts(['package.json', 'package-lock.json', 'pnpm-lock.yaml'], ['a.js'], { packageManager: 'pnpm@8.6.0' })).setup.value).toBe('npx --yes pnpm@8.6.0 install --frozen-lockfile');
  });

  it('reads a JS/TS repository: the lockfile gives setup, the runner in package.json the test command', () => {
    const ts = inferTask(facts(['package.json', 'package-lock.json', 'tsconfig.json'], ['src/a.ts'], { devDependencies: { vitest: '4.0.0' } }));
    expect(ts.language?.value).toBe('ts');
    expect(ts.setup.value).toBe('npm ci');
    expect(ts.test).toMatchObject({ command: 'npx vitest run', format: 'vitest' });
    const js = inferTask(facts(['package.json', 'yarn.lock'], ['lib/a.js'], { scripts: { test: 'node --test test/' }, dependencies: { x: '1' } }));
    expect(js.setup.value).toBe('npx --yes yarn@1 install --frozen-lockfile');
    expect(js.test).toMatchObject({ command: 'node --test test/', format: 'node-test' });
    expect(inferTask(facts(['package.json'], ['a.js'], { devDependencies: { jest: '30' } })).test?.format).toBe('jest');
    expect(inferTask(facts(['package.json'], ['a.js'], { devDependencies: { mocha: '12' } })).test).toMatchObject({ command: 'npx mocha', format: 'mocha' });
    const mocha = inferTask(facts(['package.json'], ['a.js'], { scripts: { test: 'mocha --check-leaks --reporter spec --bail test/' }, devDependencies: { mocha: '10' } })).test;
    expect(mocha).toMatchObject({ command: 'npx mocha --check-leaks test/', format: 'mocha' });
    expect(mocha?.why).toMatch(/left out --reporter spec \(the reporter.*\), --bail \(it stops the run at the first failure/);
    const vitest = inferTask(facts(['package.json'], ['a.ts'], { scripts: { test: 'npm run test:unit', 'test:unit': 'vitest --config vitest.unit.ts --dir y --coverage' }, devDependencies: { vitest: '3' } })).test;
    expect(vitest).toMatchObject({ command: 'npx vitest run --config vitest.unit.ts --dir y', format: 'vitest' });
    expect(vitest?.why).toBe('the test script through script test:unit runs vitest: vitest --config vitest.unit.ts --dir y --coverage; left out --coverage (coverage: a provider the machine may lack)');
    expect(inferTask(facts(['package.json'], ['a.js'], { scripts: { test: 'jest --config ./jest.config.js --bail' }, devDependencies: { jest: '30' } })).test).toMatchObject({ command: 'npx jest --config ./jest.config.js', format: 'jest' });
    expect(inferTask(facts(['package.json'], ['a.js'], { devDependencies: { tape: '5' } })).test).toMatchObject({ command: "npx tape 'test/**/*.js'", format: 'tap' });
    expect(inferTask(facts(['package.json'], ['a.js'], {})).test).toBeNull();
  });

  it('reads Python and Rust repositories, and says what each guess came from', () => {
    const py = inferTask(facts(['pyproject.toml'], ['calc/core.py']));
    expect(py.language).toMatchObject({ value: 'python', why: 'the changed code is python (1 of 1 files)' });
    expect(py.test).toMatchObject({ command: 'python -m pytest -q', format: 'pytest' });
    const rust = inferTask(facts(['Cargo.toml', 'Cargo.lock'], ['README.md']));
    expect(rust.language).toMatchObject({ value: 'rust', why: 'Cargo.toml at the root' });
    expect(rust.setup.value).toBe('cargo build --tests --offline');
    expect(rust.test?.format).toBe('cargo');
    expect(inferTask(facts(['README.md'], ['notes.txt'])).language).toBeNull();
  });
});
