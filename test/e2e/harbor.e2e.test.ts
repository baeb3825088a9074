import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { bakeoff } from './helpers.js';
import { tempDir, writeFiles } from './git-fixtures.js';

/*
 * `bakeoff export harbor` and `bakeoff import harbor` on a suite the test writes: a Python task
 * of two orders (exported as Harbor [[steps]]) and one of one order. Export → import → validate
 * gives the same suite hash and the same task hashes; Harbor tasks bakeoff cannot run without
 * Docker, or cannot grade, are refused with the reason.
 */

const gold = (file: string, before: string, after: string): string => {
  const minus = before === '' ? [] : before.trimEnd().split('\n').map((l) => `-${l}`);
  const plus = after.trimEnd().split('\n').map((l) => `+${l}`);
  const head = before === '' ? `--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,${plus.length} @@\n` : `--- a/${file}\n+++ b/${file}\n@@ -1,${minus.length} +1,${plus.length} @@\n`;
  return `diff --git a/${file} b/${file}\n${before === '' ? 'new file mode 100644\n' : ''}${head}${[...minus, ...plus].join('\n')}\n`;
};

const STACK_1 = 'class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, x):\n        self.items.append(x)\n';
const STACK_2 = STACK_1 + '\n    def pop(self):\n        return self.items.pop()\n';
const STACK_3 = STACK_2 + '\n    def peek(self):\n        return self.items[-1] if self.items else None\n';

const SUITE = {
  'suite.yaml': 'schemaVersion: 1\nid: trip\ndescription: a round trip\ncontrols: {}\n',
  'tasks/stack/task.yaml': 'schemaVersion: 1\nkind: feature\nlanguage: python\nsummary: A stack with pop, then peek.\nsetup: null\ntest:\n  command: python -m pytest -q tests\n  format: pytest\n',
  'tasks/stack/repo/stack.py': STACK_1,
  'tasks/stack/repo/tests/test_push.py': 'from stack import Stack\n\n\ndef test_push():\n    s = Stack()\n    s.push(1)\n    assert s.items == [1]\n',
  'tasks/stack/orders/1/prompt.md': 'Add `pop()` to the stack.\n',
  'tasks/stack/orders/1/gold.patch': gold('stack.py', STACK_1, STACK_2),
  'tasks/stack/orders/1/hidden/tests/test_pop.py': 'from stack import Stack\n\n\ndef test_pop():\n    s = Stack()\n    s.push(1)\n    assert s.pop() == 1\n',
  'tasks/stack/orders/2/prompt.md': 'Add `peek()`: the top item, or None when empty.\n',
  'tasks/stack/orders/2/gold.patch': gold('stack.py', STACK_2, STACK_3),
  'tasks/stack/orders/2/hidden/tests/test_peek.py': 'from stack import Stack\n\n\ndef test_peek():\n    assert Stack().peek() is None\n',
  'tasks/double/task.yaml': 'schemaVersion: 1\nkind: bug\nlanguage: python\nsummary: double() adds one.\nsetup: null\ntest:\n  command: python -m pytest -q tests\n  format: pytest\n',
  'tasks/double/repo/double.py': 'def double(x):\n    return x + 1\n',
  'tasks/double/orders/1/prompt.md': '`double(3)` is 4.\n',
  'tasks/double/orders/1/gold.patch': gold('double.py', 'def double(x):\n    return x + 1\n', 'def double(x):\n    return x * 2\n'),
  'tasks/double/orders/1/hidden/tests/test_double.py': 'from double import double\n\n\ndef test_double():\n    assert double(3) == 6\n',
};

interface Validated {
  suite: { hash: string };
  tasks: { id: string; admitted: boolean }[];
}

describe('bakeoff export harbor / import harbor', () => {
  let work: string;
  let original: Validated;

  beforeAll(async () => {
    work = await tempDir('bakeoff-harbor-');
    await writeFiles(path.join(work, 'trip'), SUITE);
    const r = await bakeoff(['validate', 'trip', '--json'], { cwd: work });
    expect(r.exitCode, r.stderr).toBe(0);
    original = JSON.parse(r.stdout) as Validated;
  }, 120_000);

  it('exports each task as a Harbor task folder, several orders as steps, with a test.sh that clears reward files first', async () => {
    const r = await bakeoff(['export', 'harbor', 'trip', '--out', 'harbor'], { cwd: work });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote 2 Harbor task folders');
    const toml = parseToml(await readFile(path.join(work, 'harbor/stack/task.toml'), 'utf8')) as Record<string, any>;
    expect(toml['task'].name).toBe('trip/stack');
    expect(toml['steps']).toEqual([{ name: 'order-1', min_reward: 1 }, { name: 'order-2', min_reward: 1 }]);
    expect(toml['environment']).toMatchObject({ network_mode: 'no-network', cpus: 2, memory_mb: 4096 });
    expect(toml['metadata'].bakeoff_suite_hash).toBe(original.suite.hash);
    const testSh = await readFile(path.join(work, 'harbor/stack/steps/order-2/tests/test.sh'), 'utf8');
    const lines = testSh.split('\n');
    expect(lines.findIndex((l) => l.startsWith('rm -f /logs/verifier/reward.txt /logs/verifier/reward.json'))).toBeLessThan(lines.findIndex((l) => l.includes('python -m pytest')));
    expect(testSh).toContain('cp -a "$TESTS/hidden-1/." /app/');
    expect(testSh).toContain('cp -a "$TESTS/hidden-2/." /app/');
    expect(await readFile(path.join(work, 'harbor/stack/steps/order-2/instruction.md'), 'utf8')).toBe(SUITE['tasks/stack/orders/2/prompt.md']);
    expect(await readFile(path.join(work, 'harbor/double/solution/solve.sh'), 'utf8')).toContain('git apply');
    expect(JSON.parse(await readFile(path.join(work, 'harbor/double/tests/expected.json'), 'utf8'))).toEqual({ failToPass: ['tests/test_double.py::test_double'], passToPass: [] });
    expect(await readFile(path.join(work, 'harbor/double/environment/Dockerfile'), 'utf8')).toBe('FROM python:3.11\nCOPY app /app\nWORKDIR /app\n');
  });

  it("runs as Harbor would: test.sh ignores a reward file the agent wrote, and rewards the gold (solve.sh) with 1", async () => {
    // Harbor's container paths (/app, /tests, /solution, /logs/verifier) bound in a bubblewrap box on the host's toolchains
    const box = path.join(work, 'box');
    await cp(path.join(work, 'harbor/double/environment/app'), path.join(box, 'app'), { recursive: true });
    await mkdir(path.join(box, 'logs'));
    const run = (script: string) => {
      const binds = ['/usr', '/etc', '/root', '/opt', '/var', '/home'].filter((d) => existsSync(d)).flatMap((d) => ['--ro-bind', d, d]);
      const links = ['bin', 'lib', 'lib64', 'sbin'].flatMap((l) => ['--symlink', `usr/${l}`, `/${l}`]);
      const task = path.join(work, 'harbor/double');
      return execa('bwrap', ['--tmpfs', '/', ...binds, ...links, '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', path.join(box, 'app'), '/app', '--bind', path.join(box, 'logs'), '/logs/verifier', '--ro-bind', path.join(task, 'tests'), '/tests', '--ro-bind', path.join(task, 'solution'), '/solution', 'bash', script], { reject: false });
    };
    await writeFile(path.join(box, 'logs/reward.json'), '{"reward": 1}\n');
    await run('/tests/test.sh');
    expect(JSON.parse(await readFile(path.join(box, 'logs/reward.json'), 'utf8'))).toEqual({ reward: 0, exit_code: 1 });
    expect((await run('/solution/solve.sh')).exitCode).toBe(0);
    await run('/tests/test.sh');
    expect(JSON.parse(await readFile(path.join(box, 'logs/reward.json'), 'utf8'))).toEqual({ reward: 1, exit_code: 0 });
    expect((await readFile(path.join(box, 'logs/reward.txt'), 'utf8')).trim()).toBe('1');
  });

  it('imports the exported folders back: validate gives the same suite hash and task hashes', async () => {
    const r = await bakeoff(['import', 'harbor', 'harbor', '--suite', 'back/trip', '--json'], { cwd: work });
    expect(r.exitCode, r.stderr).toBe(0);
    const back = JSON.parse(r.stdout) as Validated;
    expect(back.tasks.map((t) => [t.id, t.admitted])).toEqual([['double', true], ['stack', true]]);
    expect(back.suite.hash).toBe(original.suite.hash);
    const lockOf = async (dir: string) => (JSON.parse(await readFile(path.join(work, dir, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, { taskHash: string }> }).tasks;
    const [a, b] = [await lockOf('trip'), await lockOf('back/trip')];
    for (const id of ['stack', 'double']) expect(b[id]!.taskHash).toBe(a[id]!.taskHash);
  });

  it('refuses Harbor tasks bakeoff cannot run without Docker or cannot grade, saying why (exit 2)', async () => {
    await writeFiles(path.join(work, 'other'), {
      'compose/task.toml': '[task]\nname = "x/compose"\n',
      'compose/environment/docker-compose.yaml': 'services: {}\n',
      'compose/instruction.md': 'x\n',
      'image/task.toml': '[task]\nname = "x/image"\n[environment]\ndocker_image = "ghcr.io/x/y:1"\n',
      'plain/task.toml': '[task]\nname = "x/plain"\n',
      'plain/environment/Dockerfile': 'FROM python:3.12\nCOPY app /app\nWORKDIR /app\n',
      'plain/environment/app/a.py': 'x = 1\n',
      'gpu/task.toml': '[task]\nname = "x/gpu"\n[environment]\ngpus = 1\n',
      'ubuntu/task.toml': '[task]\nname = "x/ubuntu"\n',
      'ubuntu/environment/Dockerfile': 'FROM ubuntu:24.04\nRUN apt-get install -y curl\n',
    });
    const r = await bakeoff(['import', 'harbor', 'other', '--suite', 'refused'], { cwd: work });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('environment/docker-compose.yaml starts services beside the task');
    expect(r.stdout).toContain('[environment].docker_image "ghcr.io/x/y:1" is a prebuilt image');
    expect(r.stdout).toContain('[environment].gpus = 1 asks for GPUs');
    expect(r.stdout).toContain('starts FROM ubuntu:24.04, not a toolchain image bakeoff has on the host');
    expect(r.stdout).toContain('[metadata].bakeoff_manifest is missing');
    await rm(path.join(work, 'other'), { recursive: true });
  });
});
