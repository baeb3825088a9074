import { cp, mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { InputError } from '../errors.js';
import { loadSuite } from './load-suite.js';

const fixtures = path.resolve(import.meta.dirname, '../../test/fixtures/suites');
const starter = path.resolve(import.meta.dirname, '../../examples/starter');

async function copyOf(dir: string): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-suite-'));
  await cp(dir, tmp, { recursive: true });
  return tmp;
}

describe('loadSuite', () => {
  it('reports every schema error with file, field, expected and received', async () => {
    const error = await loadSuite(path.join(fixtures, 'typo')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    const issues = (error as InputError).issues;
    const suiteIssue = issues.find((i) => i.field === 'controls.runsPerTsk');
    expect(suiteIssue?.file).toMatch(/typo\/suite\.yaml$/);
    expect(suiteIssue?.expected).toContain('did you mean "runsPerTask"');
    expect(suiteIssue?.received).toContain('runsPerTsk');
    const kind = issues.find((i) => i.field === 'kind');
    expect(kind?.file).toMatch(/task\.yaml$/);
    expect(kind?.expected).toContain('"bug"');
    expect(kind?.received).toBe('"bugg"');
    expect(issues.find((i) => i.field === 'language')?.received).toBe('"javascript"');
    expect((error as Error).message.split('\n').length).toBeGreaterThanOrEqual(3);
  });

  it('asks a junit task where its XML goes (test.report), and refuses test.report on another format', async () => {
    const dir = await copyOf(path.join(fixtures, 'runners'));
    const taskYaml = path.join(dir, 'tasks/junit-median/task.yaml');
    const yaml = await readFile(taskYaml, 'utf8');
    await writeFile(taskYaml, yaml.replace(/\n  report: .*\n/, '\n'));
    const missing = (await loadSuite(dir).catch((e: unknown) => e)) as InputError;
    expect(missing).toBeInstanceOf(InputError);
    expect(missing.issues.find((i) => i.field === 'test.report')?.expected).toContain('format junit needs test.report');
    await writeFile(taskYaml, yaml.replace('format: junit', 'format: pytest'));
    const extra = (await loadSuite(dir).catch((e: unknown) => e)) as InputError;
    expect(extra.issues.find((i) => i.field === 'test.report')?.expected).toContain('test.report is for format junit only');
    await writeFile(taskYaml, yaml.replace('report: reports/junit.xml', 'report: ../outside.xml'));
    const outside = (await loadSuite(dir).catch((e: unknown) => e)) as InputError;
    expect(outside.issues.find((i) => i.field === 'test.report')?.expected).toContain('inside the repo');
  });

  it('names a missing suite folder', async () => {
    await expect(loadSuite('/nonexistent/suite')).rejects.toThrow(/no such folder/);
  });

  it('reports an unparseable YAML file with its line', async () => {
    const dir = await copyOf(starter);
    await writeFile(path.join(dir, 'suite.yaml'), 'id: [unclosed\n');
    await expect(loadSuite(dir)).rejects.toThrow(/suite\.yaml: expected valid YAML, received a syntax error/);
  });
});

describe('suite hash', () => {
  it('is the same for a copy with other mtimes', async () => {
    const a = await loadSuite(starter);
    const dir = await copyOf(starter);
    const prompt = path.join(dir, 'tasks', a.tasks[0]!.id, 'orders', '1', 'prompt.md');
    await utimes(prompt, new Date('2001-01-01'), new Date('2001-01-01'));
    await writeFile(path.join(dir, 'TASKS.md'), 'edited output, not part of the contract\n');
    expect((await loadSuite(dir)).hash).toBe(a.hash);
  });

  it("counts the owner's methodology.md: adding or editing it changes the hash, and it is read as text", async () => {
    const dir = await copyOf(path.join(fixtures, 'tiny'));
    const without = await loadSuite(dir);
    expect(without.methodology).toBeNull();
    await writeFile(path.join(dir, 'methodology.md'), '## What it does not prove\n\nTwo tasks prove little.\n');
    const added = await loadSuite(dir);
    expect(added.methodology).toContain('Two tasks prove little.');
    expect(added.hash).not.toBe(without.hash);
    await writeFile(path.join(dir, 'methodology.md'), '## What it does not prove\n\nTwo tasks prove nothing.\n');
    const edited = await loadSuite(dir);
    expect(edited.hash).not.toBe(added.hash);
    expect(edited.tasks.map((t) => t.hash)).toEqual(added.tasks.map((t) => t.hash));
  });

  it('refuses a methodology.md that is too large or not UTF-8, naming the file', async () => {
    for (const bytes of [Buffer.alloc(70 * 1024, 'a'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a])]) {
      const dir = await copyOf(path.join(fixtures, 'tiny'));
      await writeFile(path.join(dir, 'methodology.md'), bytes);
      const error = await loadSuite(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).issues[0]!.file).toBe(path.join(dir, 'methodology.md'));
    }
  });

  it('changes when a hidden test, a gold patch or a control changes', async () => {
    const a = await loadSuite(starter);
    const task = a.tasks[0]!;
    for (const edit of [
      async (dir: string) => writeFile(path.join(dir, 'tasks', task.id, 'orders', '1', 'hidden', task.orders[0]!.hiddenFiles[0]!), '// changed\n', { flag: 'a' }),
      async (dir: string) => writeFile(path.join(dir, 'tasks', task.id, 'orders', '1', 'gold.patch'), '\n', { flag: 'a' }),
      async (dir: string) => {
        const file = path.join(dir, 'suite.yaml');
        await writeFile(file, (await readFile(file, 'utf8')).replace('runsPerTask: 2', 'runsPerTask: 3'));
      },
    ]) {
      const dir = await copyOf(starter);
      await edit(dir);
      expect((await loadSuite(dir)).hash).not.toBe(a.hash);
    }
  });

  it("keeps the admission hash when only a prompt, the task's words for people or its provenance change, not when its source's test lists or its tests do", async () => {
    const a = (await loadSuite(starter)).tasks[0]!;
    const edited = async (edit: (taskDir: string) => Promise<void>) => {
      const dir = await copyOf(starter);
      await edit(path.join(dir, 'tasks', a.id));
      return (await loadSuite(dir)).tasks[0]!;
    };
    const manifest = (change: (m: Record<string, unknown>) => void) => async (taskDir: string) => {
      const file = path.join(taskDir, 'task.yaml');
      const m = parseYaml(await readFile(file, 'utf8')) as Record<string, unknown>;
      change(m);
      await writeFile(file, stringifyYaml(m));
    };
    const moved = await edited(manifest((m) => Object.assign(m, { kind: m.kind === 'bug' ? 'feature' : 'bug', summary: 'Other words.', origin: { kind: 'commit', repo: 'elsewhere', commit: '0123abc' }, public: { title: 'Shown elsewhere' } })));
    const prompt = await edited(async (taskDir) => writeFile(path.join(taskDir, 'orders/1/prompt.md'), 'other words\n', { flag: 'a' }));
    expect([moved.hash === a.hash, moved.admissionHash, prompt.hash === a.hash, prompt.admissionHash]).toEqual([false, a.admissionHash, false, a.admissionHash]);
    const expected = await edited(manifest((m) => Object.assign(m, { origin: { ...(m.origin as object), expected: { failToPass: ['t1'], passToPass: [] } } })));
    const hidden = await edited(async (taskDir) => writeFile(path.join(taskDir, 'orders/1/hidden', a.orders[0]!.hiddenFiles[0]!), '// changed\n', { flag: 'a' }));
    expect(expected.admissionHash).not.toBe(a.admissionHash);
    expect(hidden.admissionHash).not.toBe(a.admissionHash);
  });

  it('ignores YAML formatting and the description', async () => {
    const a = await loadSuite(starter);
    const dir = await copyOf(starter);
    const file = path.join(dir, 'suite.yaml');
    await writeFile(file, '# a comment\n' + (await readFile(file, 'utf8')).replace(/description:[\s\S]*?controls:/, 'description: other words\ncontrols:'));
    expect((await loadSuite(dir)).hash).toBe(a.hash);
  });
});
