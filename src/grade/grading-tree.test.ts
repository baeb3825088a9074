import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Controls } from '../suite/schema.js';
import { createIsolation } from '../sandbox/isolation.js';
import { chownTree } from '../sandbox/workspace.js';
import { exists } from '../util/fs.js';
import { buildGradingTree, changedGradedFiles } from './grading-tree.js';
import { pytestRunner } from '../runners/pytest.js';

async function layout(): Promise<{ root: string; prepared: string; graded: string; hidden: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-tree-'));
  await chmod(root, 0o711); // the sandbox uid traverses it, as it does bakeoff's scratch folders
  const prepared = path.join(root, 'prepared');
  const graded = path.join(root, 'graded');
  const hidden = path.join(root, 'hidden');
  for (const dir of [prepared, graded]) {
    await mkdir(path.join(dir, 'tests'), { recursive: true });
    await writeFile(path.join(dir, 'tests', 'test_old.py'), 'def test_old():\n    assert True\n');
    await writeFile(path.join(dir, 'calc.py'), 'def add(a, b):\n    return a + b\n');
  }
  await mkdir(path.join(hidden, 'tests', 'unit'), { recursive: true });
  await writeFile(path.join(hidden, 'tests', 'unit', 'test_hidden.py'), 'def test_hidden():\n    assert 1 + 1 == 2\n');
  return { root, prepared, graded, hidden };
}

describe('buildGradingTree', () => {
  it("puts back the suite's test files, removes added ones, places hidden files and appends tripwires to them", async () => {
    const { prepared, graded, hidden } = await layout();
    // the change: weakens a visible test, adds a test module collected first, writes at a hidden path
    await writeFile(path.join(graded, 'tests', 'test_old.py'), 'def test_old():\n    pass\n');
    await writeFile(path.join(graded, 'tests', 'test_000.py'), 'pytest_plugins = ["evil"]\n');
    await mkdir(path.join(graded, 'tests', 'unit'), { recursive: true });
    await writeFile(path.join(graded, 'tests', 'unit', 'test_hidden.py'), 'def test_hidden():\n    pass\n');
    const tree = await buildGradingTree({
      repoDir: graded,
      preparedRepo: prepared,
      runner: pytestRunner,
      testFiles: pytestRunner.testFiles,
      changedPaths: ['tests/test_old.py', 'tests/test_000.py', 'tests/unit/test_hidden.py', 'calc.py'],
      hiddenDirs: [hidden],
      expectedIds: ['tests/test_old.py::test_old', 'tests/unit/test_hidden.py::test_hidden'],
    });
    expect(tree.restored).toEqual(['tests/test_old.py']);
    expect(tree.removed).toEqual(['tests/test_000.py']);
    expect(await exists(path.join(graded, 'tests', 'test_000.py'))).toBe(false);
    expect(await readFile(path.join(graded, 'tests', 'test_old.py'), 'utf8')).toContain('assert True');
    const hiddenText = await readFile(path.join(graded, 'tests', 'unit', 'test_hidden.py'), 'utf8');
    expect(hiddenText.startsWith('def test_hidden():\n    assert 1 + 1 == 2\n')).toBe(true);
    expect(tree.tripwires).toHaveLength(3);
    for (const wire of tree.tripwires) expect(hiddenText).toContain(`def ${wire.name}():`);
    expect(tree.gradedFiles).toEqual(['tests/test_old.py', 'tests/unit/test_hidden.py']);
    expect(tree.binds.map((b) => [path.relative(graded, b.path), b.writable])).toEqual([
      ['tests', true],
      ['tests/unit', true],
      ['tests/test_old.py', false],
      ['tests/unit/test_hidden.py', false],
    ]);
  });

  it('makes graded files impossible to replace, rename over, delete or move away inside the sandbox', async () => {
    const { prepared, graded, hidden } = await layout();
    const tree = await buildGradingTree({
      repoDir: graded,
      preparedRepo: prepared,
      runner: pytestRunner,
      testFiles: pytestRunner.testFiles,
      changedPaths: [],
      hiddenDirs: [hidden],
      expectedIds: [],
    });
    const isolation = await createIsolation({ controls: Controls.parse({}), backend: 'bwrap' });
    if (isolation.sandbox.owner) await chownTree([path.join(graded, 'tests'), path.join(graded, 'calc.py')], isolation.sandbox.owner);
    const attempts = [
      'echo fake > tests/unit/fake.py && mv -f tests/unit/fake.py tests/unit/test_hidden.py',
      'mv tests tests_moved',
      'mv tests/unit tests/unit_moved',
      'rm -f tests/unit/test_hidden.py',
      'echo x >> tests/unit/test_hidden.py',
      'rm -rf tests',
    ];
    const script = [...attempts, 'echo ok > tests/unit/scratch.txt'].map((a) => `if (${a}) 2>/dev/null; then echo "DONE ${a}"; else echo "REFUSED ${a}"; fi`).join('\n');
    const outputPath = path.join(path.dirname(graded), 'out.log');
    await isolation.sandbox.exec({
      command: script,
      cwd: graded,
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 30_000,
      network: 'none',
      outputPath,
      binds: [{ path: graded, writable: true }, ...tree.binds],
    });
    const log = await readFile(outputPath, 'utf8');
    for (const a of attempts) expect(log, log).toContain(`REFUSED ${a}`);
    // and the code under test can still write next to them (the positive control)
    expect(log).toContain('DONE echo ok > tests/unit/scratch.txt');
    expect(await changedGradedFiles(graded, tree.digests)).toEqual([]);
  });
});
