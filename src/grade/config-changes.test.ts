import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configChanges, runsPytest, usesPackageScripts } from './config-changes.js';
import { pythonShadows } from './python-shadow.js';

async function trees(files: Record<string, [string | null, string | null]>): Promise<{ preparedRepo: string; repoDir: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-config-'));
  const preparedRepo = path.join(root, 'prepared');
  const repoDir = path.join(root, 'graded');
  for (const [rel, [before, after]] of Object.entries(files)) {
    for (const [dir, text] of [[preparedRepo, before], [repoDir, after]] as const) {
      if (text === null) continue;
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), text);
    }
  }
  return { preparedRepo, repoDir };
}

const CARGO = '[package]\nname = "wrap"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n';

describe('configChanges', () => {
  it('sees jest configuration added to package.json, in any folder, and ignores other keys', async () => {
    const t = await trees({
      'package.json': ['{"name":"x","jest":{"testEnvironment":"node"}}', '{"name":"x","version":"2.0.0","jest":{"testEnvironment":"node","testResultsProcessor":"./p.js"}}'],
      'sub/package.json': [null, '{"babel":{"plugins":["./evil"]}}'],
      'other/package.json': ['{"description":"a"}', '{"description":"b"}'],
    });
    const out = await configChanges({ format: 'jest', command: 'npx jest', ...t, changedPaths: ['package.json', 'sub/package.json', 'other/package.json'] });
    expect(out).toEqual(['package.json: "jest" changed (runner configuration)', 'sub/package.json: "babel" changed (runner configuration)']);
  });

  it('protects package.json scripts only when the test command runs one', async () => {
    const t = await trees({ 'package.json': ['{"scripts":{"test":"node --test"}}', '{"scripts":{"test":"echo ok"}}'] });
    expect(await configChanges({ format: 'node-test', command: 'npm test', ...t, changedPaths: ['package.json'] })).toHaveLength(1);
    expect(await configChanges({ format: 'node-test', command: 'node --test test/', ...t, changedPaths: ['package.json'] })).toEqual([]);
    expect(usesPackageScripts('npx vitest run')).toBe(false);
    expect(usesPackageScripts('cd pkg && pnpm test')).toBe(true);
  });

  it("protects mocha's package.json key and the files the prepared repo's mocha configuration loads", async () => {
    const t = await trees({
      'package.json': ['{"name":"x","mocha":{"require":["test/hooks.js"]}}', '{"name":"x","mocha":{"require":["test/hooks.js"],"grep":"nothing"}}'],
      '.mocharc.jsonc': ['{\n  // comment\n  "file": "test/setup", /* and "require": "x" */ "spec": "http://example//x"\n}', null],
      '.mocharc.yml': ['ui: ./tools/ui.cjs\n', null],
      'test/hooks.js': ['exports.mochaHooks = {};', 'exports.mochaHooks = { beforeAll() {} };'],
      'test/setup.js': ['', '// changed'],
      'tools/ui.cjs': ['', '// changed'],
      'test/extra.cjs': ['', '// changed'],
      'src/index.js': ['', '// changed'],
    });
    const changedPaths = ['package.json', 'test/hooks.js', 'test/setup.js', 'tools/ui.cjs', 'test/extra.cjs', 'src/index.js'];
    const out = await configChanges({ format: 'mocha', command: 'npx mocha -r test/extra.cjs', ...t, changedPaths });
    expect(out.map((o) => o.split(':')[0])).toEqual(['package.json', 'test/hooks.js', 'test/setup.js', 'tools/ui.cjs', 'test/extra.cjs']);
    expect(out[0]).toBe('package.json: "mocha" changed (runner configuration)');
    // another format does not read mocha's configuration
    expect(await configChanges({ format: 'vitest', command: 'npx vitest run', ...t, changedPaths })).toEqual([]);
  });

  it('protects what decides which program a JavaScript command runs or what a package name loads: bin, name, exports, imports, volta, and packageManager under a package manager', async () => {
    const t = await trees({
      'package.json': ['{"name":"range-check","main":"src/index.ts"}', '{"name":"vitest","main":"src/main.ts","bin":{"vitest":"run.js"},"exports":"./fake.js"}'],
      'test/package.json': [null, '{"imports":{"#t":"./t.js"}}'],
      'other/package.json': ['{"volta":{"node":"20.1.0"}}', '{"volta":{"node":"18.0.0"}}'],
    });
    const changedPaths = ['package.json', 'test/package.json', 'other/package.json'];
    for (const format of ['node-test', 'vitest', 'jest', 'mocha', 'tap', 'junit'] as const) {
      const out = await configChanges({ format, command: 'npx runner', ...t, changedPaths });
      expect(out, format).toEqual([
        'package.json: "name", "bin", "exports" changed (decides which program runs or what a package name loads)',
        'test/package.json: "imports" changed (decides which program runs or what a package name loads)',
        'other/package.json: "volta" changed (decides which program runs or what a package name loads)',
      ]);
    }
    expect(await configChanges({ format: 'pytest', command: 'python -m pytest', ...t, changedPaths })).toEqual([]);
    const corepack = await trees({ 'package.json': ['{"packageManager":"pnpm@9.0.0"}', '{"packageManager":"pnpm@8.0.0"}'] });
    expect(await configChanges({ format: 'vitest', command: 'pnpm test', ...corepack, changedPaths: ['package.json'] })).toEqual(['package.json: "packageManager" changed (runner configuration)']);
    expect(await configChanges({ format: 'vitest', command: 'npx vitest run', ...corepack, changedPaths: ['package.json'] })).toEqual([]);
  });

  it("protects the modules pytest's prepared configuration loads as plugins (-p in the command or addopts, pytest_plugins in a conftest), and the packages above them", async () => {
    const t = await trees({
      'pyproject.toml': ['[tool.pytest.ini_options]\naddopts = "-q -p tools.fixtures -p no:cacheprovider"\n', '[tool.pytest.ini_options]\naddopts = "-q"\n'],
      'tools/__init__.py': ['', '# changed'],
      'tools/fixtures.py': ['', '# changed'],
      'tests/conftest.py': ['pytest_plugins = [\n    "helpers.db",\n]\n', null],
      'src/helpers/db.py': ['', '# changed'],
      'src/helpers/__init__.py': ['', '# changed'],
      'cmdplugin.py': ['', '# changed'],
      'ledger/core.py': ['', '# changed'],
    });
    const changedPaths = ['tools/__init__.py', 'tools/fixtures.py', 'src/helpers/db.py', 'src/helpers/__init__.py', 'cmdplugin.py', 'ledger/core.py'];
    const out = await configChanges({ format: 'pytest', command: 'python -m pytest -pcmdplugin tests', ...t, changedPaths });
    expect(out.map((o) => o.split(':')[0])).toEqual(['tools/__init__.py', 'tools/fixtures.py', 'src/helpers/db.py', 'src/helpers/__init__.py', 'cmdplugin.py']);
    const junit = await configChanges({ format: 'junit', command: 'python3 -m pytest --junitxml=r.xml -pcmdplugin tests', ...t, changedPaths });
    expect(junit.map((o) => o.split(':')[0])).toContain('cmdplugin.py');
    expect(runsPytest('junit', 'npx jest --ci')).toBe(false);
  });

  it('lets Cargo.toml change package metadata only', async () => {
    const bump = await trees({ 'Cargo.toml': [CARGO, CARGO.replace('0.1.0', '0.1.1') + '\n'] });
    expect(await configChanges({ format: 'cargo', command: 'cargo test', ...bump, changedPaths: ['Cargo.toml'] })).toEqual([]);
    const harness = await trees({ 'Cargo.toml': [CARGO, `${CARGO}\n[[test]]\nname = "wrap"\nharness = false\n`] });
    expect(await configChanges({ format: 'cargo', command: 'cargo test', ...harness, changedPaths: ['Cargo.toml'] })).toEqual(['Cargo.toml: test changed (only package metadata may change)']);
    const build = await trees({ 'Cargo.toml': [CARGO, CARGO.replace('edition = "2021"', 'edition = "2021"\nbuild = "gen.rs"')] });
    expect(await configChanges({ format: 'cargo', command: 'cargo test', ...build, changedPaths: ['Cargo.toml'] })).toEqual(['Cargo.toml: package.build changed (only package metadata may change)']);
    const crate = await trees({ 'macro/Cargo.toml': [null, '[package]\nname = "m"\n[lib]\nproc-macro = true\n'] });
    expect(await configChanges({ format: 'cargo', command: 'cargo test', ...crate, changedPaths: ['macro/Cargo.toml'] })).toEqual(['macro/Cargo.toml: a Cargo.toml the change added (a crate of its own)']);
  });
});

describe('pythonShadows', () => {
  it('refuses an added module named like an installed one, where pytest puts it first on sys.path', async () => {
    const t = await trees({ 'ledger/__init__.py': ['', ''] });
    const installed = new Set(['pytest', '_pytest', 'json', 'pluggy']);
    const out = await pythonShadows({ preparedRepo: t.preparedRepo, testDirs: ['tests'], installed, changedPaths: ['pytest.py', '_pytest/python.py', 'tests/json.py', 'ledger/json.py', 'ledger/core.py', 'notes.py'] });
    expect(out.map((o) => o.split(' ')[0])).toEqual(['pytest.py', '_pytest/python.py', 'tests/json.py']);
  });
});
