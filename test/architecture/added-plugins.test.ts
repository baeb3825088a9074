import { execa } from 'execa';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs helper of the fixture, no types
import { addRegistryLine, REGISTRY_LINE } from '../fixtures/sixth-harness/add-registry-line.mjs';
// @ts-expect-error plain .mjs helper of the fixture, no types
import { addRegistryLines, IMPORTER_LINE, RUNNER_LINE, SANDBOX_LINE } from '../fixtures/added-plugins/add-registry-lines.mjs';

/*
 * "A plugin is one folder or file plus one registry line", shown on one copy of src/ for four
 * kinds at once: a sixth harness (test/fixtures/sixth-harness/echo-cli → agents/harnesses/echo-cli/),
 * a ninth test runner (test/fixtures/added-plugins/unittest-runner: Python's unittest →
 * runners/unittest.ts), a second kind of importer (added-plugins/json-tasks-importer →
 * importers/import-json-tasks.ts) and a third sandbox backend (added-plugins/niced-sandbox: the
 * process sandbox under `nice` → sandbox/niced/), each with its one line in its registry. The copy then
 * type-checks, and each new member gets its kind's whole conformance suite, imported from the
 * copy (so it iterates the copy's registry) and run here on the new member: the harness suite
 * over all six harnesses; the runner suite on the unittest sample project, with the real
 * Python; the importer suite on the json-tasks sample, admission in the sandbox included; the
 * sandbox suite on the niced backend (its isolation cases skipped: it does not isolate). A
 * runner registered without a sample is a failing case of that suite.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = path.join(ROOT, 'test/fixtures/sixth-harness');
const ADDED = path.join(ROOT, 'test/fixtures/added-plugins');
const work = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-added-plugins-'));
const copy = path.join(work, 'src');
afterAll(() => rm(work, { recursive: true, force: true }));

await cp(path.join(ROOT, 'src'), copy, { recursive: true });
await cp(path.join(FIXTURE, 'echo-cli'), path.join(copy, 'agents/harnesses/echo-cli'), { recursive: true });
addRegistryLine(copy);
await cp(path.join(ADDED, 'unittest-runner/unittest.ts'), path.join(copy, 'runners/unittest.ts'));
await cp(path.join(ADDED, 'json-tasks-importer/import-json-tasks.ts'), path.join(copy, 'importers/import-json-tasks.ts'));
await cp(path.join(ADDED, 'niced-sandbox'), path.join(copy, 'sandbox/niced'), { recursive: true });
addRegistryLines(copy);
for (const file of ['tsconfig.json', 'package.json']) await cp(path.join(ROOT, file), path.join(work, file));
await symlink(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));
// the copy's conformance suites read the project's fixtures (test/fixtures/…) beside src/
await symlink(path.join(ROOT, 'test'), path.join(work, 'test'));

// The copy's own conformance suites, each over the copy's registry: all six harnesses; the
// ninth runner on its sample; the new importer on its sample; the new sandbox backend.
process.env.BAKEOFF_CONFORMANCE_ONLY = 'unittest';
process.env.BAKEOFF_CONFORMANCE_SAMPLES = path.join(ADDED, 'unittest-runner/sample');
process.env.BAKEOFF_CONFORMANCE_IMPORTERS = 'json-tasks';
process.env.BAKEOFF_IMPORTER_SAMPLES = path.join(ADDED, 'json-tasks-importer/sample');
process.env.BAKEOFF_CONFORMANCE_SANDBOXES = 'niced';
await import(path.join(copy, 'agents/harnesses/harnesses.test.ts'));
await import(path.join(copy, 'runners/conformance.test.ts'));
await import(path.join(copy, 'importers/conformance.test.ts'));
await import(path.join(copy, 'sandbox/conformance.test.ts'));

/** What the copy exports, imported through vitest like any source file. */
const load = async <T>(rel: string): Promise<T> => (await import(path.join(copy, rel))) as T;

describe('plugins added to a copy of src/: each one folder or file plus one registry line', () => {
  it('changes nothing but the new harness folder, runner file, importer file and sandbox folder, and one line in each registry', async () => {
    // `A\t<copy>/<file>` for a new file, `M\t<src>/<file>` for a changed one (paths relative to the cwd)
    const status = await execa('git', ['diff', '--no-index', '--name-status', path.join(ROOT, 'src'), copy], { reject: false });
    const changed = status.stdout.trim().split('\n').map((line) => {
      const [kind, name] = line.split('\t') as [string, string];
      const full = path.resolve(name);
      return { kind, file: path.relative(full.startsWith(copy) ? copy : path.join(ROOT, 'src'), full) };
    });
    expect(changed.filter((c) => c.kind === 'M').map((c) => c.file).sort()).toEqual(['agents/harnesses/index.ts', 'importers/registry.ts', 'runners/registry.ts', 'sandbox/registry.ts']);
    expect(changed.filter((c) => c.kind !== 'M').map((c) => `${c.kind} ${c.file}`).sort()).toEqual(
      [...['echo-cli.mjs', 'index.ts', 'parse-stream.ts', 'test-recipe.ts'].map((f) => `agents/harnesses/echo-cli/${f}`), 'importers/import-json-tasks.ts', 'runners/unittest.ts', 'sandbox/niced/index.ts'].map((f) => `A ${f}`).sort(),
    );
    const added = async (file: string): Promise<string[]> => {
      const diff = await execa('git', ['diff', '--no-index', '-U0', path.join(ROOT, 'src', file), path.join(copy, file)], { reject: false });
      return diff.stdout.split('\n').filter((l) => /^[+-][^+-]/.test(l));
    };
    expect(await added('agents/harnesses/index.ts')).toEqual([`+${REGISTRY_LINE}`]);
    expect(await added('runners/registry.ts')).toEqual([`+${RUNNER_LINE}`]);
    expect(await added('importers/registry.ts')).toEqual([`+${IMPORTER_LINE}`]);
    expect(await added('sandbox/registry.ts')).toEqual([`+${SANDBOX_LINE}`]);
  });

  it('type-checks with the project\'s typescript and tsconfig', async () => {
    const tsc = await execa(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(work, 'tsconfig.json'), '--noEmit'], { reject: false });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.exitCode).toBe(0);
  }, 120_000);

  it('appears in the derived names: spec parsing, the unknown-harness errors and `bakeoff agents`', async () => {
    const { HARNESS_NAMES, harnessNamed } = await load<typeof import('../../src/agents/harnesses/index.js')>('agents/harnesses/index.ts');
    const { parseHarnessSpec } = await load<typeof import('../../src/agents/harness-spec.js')>('agents/harness-spec.ts');
    const { resolveAgent } = await load<typeof import('../../src/agents/registry.js')>('agents/registry.ts');
    const { agentsCommand } = await load<typeof import('../../src/cli/commands/agents.js')>('cli/commands/agents.ts');
    expect(HARNESS_NAMES).toEqual(['claude-code', 'codex', 'pi', 'opencode', 'gemini-cli', 'echo-cli']);
    expect(parseHarnessSpec('echo-cli:echo-1')).toEqual({ harness: 'echo-cli', model: 'echo-1', effort: null });
    expect(() => harnessNamed('aider')).toThrow('expected one of claude-code, codex, pi, opencode, gemini-cli, echo-cli, received "aider"');
    await expect(resolveAgent('echo:x', { cwd: '/' })).rejects.toThrow('(did you mean "echo-cli"?)');

    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const env = { ...process.env, BAKEOFF_HARNESS_DIR: path.join(work, 'harnesses') };
    await agentsCommand('list', [], { json: true, wide: false }, { stdout, stderr: new PassThrough(), cwd: work, env });
    const listed = (JSON.parse(text) as { harnesses: { harness: string; package: string; pinned: string; installed: string | null; exampleModel: string; efforts: string[] }[] }).harnesses;
    expect(listed.at(-1)).toMatchObject({ harness: 'echo-cli', package: 'bakeoff-echo-cli', pinned: '1.0.0', installed: null, exampleModel: 'echo-1', efforts: [] });
  });

  it('drives its CLI through its own setup, version check, parser and real-CLI recipe', async () => {
    const { harnessNamed } = await load<typeof import('../../src/agents/harnesses/index.js')>('agents/harnesses/index.ts');
    const { installDirOf, installedVersion } = await load<typeof import('../../src/agents/install-harness.js')>('agents/install-harness.ts');
    const { recipes } = await load<import('../../src/agents/harnesses/test-recipe.js').TestRecipeModule>('agents/harnesses/echo-cli/test-recipe.ts');
    const harness = harnessNamed('echo-cli');
    const env = { BAKEOFF_HARNESS_DIR: path.join(work, 'harnesses') };
    expect(await installedVersion(harness, env)).toBeNull();
    // "Installed" as npm would link it: the shipped script at the pinned prefix's bin.
    const bin = path.join(installDirOf(harness, env), harness.bin);
    await mkdir(path.dirname(bin), { recursive: true });
    await cp(path.join(copy, 'agents/harnesses/echo-cli/echo-cli.mjs'), bin);
    await chmod(bin, 0o755);
    expect(await installedVersion(harness, env)).toBe(harness.version);

    const home = path.join(work, 'home');
    const setup = harness.setup({ installDir: installDirOf(harness, env), home, workspace: work, prompt: '--fix it', model: 'echo-1', effort: null, baseUrl: 'http://127.0.0.1:1', apiKey: 'k', prices: null });
    for (const [file, content] of Object.entries(setup.homeFiles)) {
      await mkdir(path.dirname(path.join(home, file)), { recursive: true });
      await writeFile(path.join(home, file), content);
    }
    const run = await execa(setup.argv[0]!, setup.argv.slice(1), { env: setup.env, input: setup.stdin ?? '', reject: false });
    expect((await harness.stream()).parse(run.stdout, run.exitCode ?? null)).toMatchObject({ failed: false, finalMessage: 'echo: --fix it', model: 'echo-1', version: '1.0.0', turns: 1 });

    const recipe = recipes[0]!;
    const { args } = await recipe.setup({ home, workdir: work, url: 'http://127.0.0.1:1', prompt: 'hello' });
    const viaRecipe = await execa(bin, args, { reject: false });
    const events = viaRecipe.stdout.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(recipe.finalMessage(events)).toBe('echo: hello');
  });

  it('lists the ninth runner wherever report formats appear, and fails its conformance suite when it has no sample project', async () => {
    const { REPORT_FORMATS } = await load<typeof import('../../src/runners/registry.js')>('runners/registry.ts');
    const { TaskManifestSchema } = await load<typeof import('../../src/suite/index.js')>('suite/index.ts');
    const { planConformance, readSamples } = await load<typeof import('../../src/runners/conformance-samples.test-support.js')>('runners/conformance-samples.test-support.ts');
    expect(REPORT_FORMATS.at(-1)).toBe('unittest');
    const manifest = { schemaVersion: 1, kind: 'bug', language: 'python', summary: 's', setup: null, test: { command: 'python -m unittest', format: 'unittest' } };
    expect(TaskManifestSchema.safeParse(manifest).success).toBe(true);
    // without the sample folder, the suite has a failing case for it instead of running none
    const plan = planConformance(REPORT_FORMATS, readSamples([path.join(ROOT, 'test/fixtures/reports')], ROOT));
    expect(plan.withoutSample).toEqual(['unittest']);
  });

  it('lists the second importer in the registry the library imports through', async () => {
    const { IMPORTER_NAMES } = await load<typeof import('../../src/importers/index.js')>('importers/index.ts');
    expect(IMPORTER_NAMES.at(-1)).toBe('json-tasks');
  });

  it('lists the third sandbox backend wherever backends are named, chooses it by name and runs its commands under nice', async () => {
    const { SANDBOX_NAMES, sandboxNamed } = await load<typeof import('../../src/sandbox/index.js')>('sandbox/index.ts');
    const { createIsolation } = await load<typeof import('../../src/sandbox/isolation.js')>('sandbox/isolation.ts');
    const { Controls } = await load<typeof import('../../src/suite/index.js')>('suite/index.ts');
    expect(SANDBOX_NAMES).toEqual(['bwrap', 'unsafe-no-sandbox', 'niced']);
    expect(() => sandboxNamed('nicer')).toThrow('expected one of bwrap, unsafe-no-sandbox, niced, received "nicer"');
    const { sandbox } = await createIsolation({ controls: Controls.parse({}), backend: 'niced', sweep: false });
    expect([sandbox.name, sandbox.isolated]).toEqual(['niced', false]);
    const cwd = await mkdtemp(path.join(work, 'niced-'));
    const outputPath = path.join(cwd, 'out.log');
    // `nice` alone prints the niceness it runs at: bakeoff's own plus the backend's 10
    const r = await sandbox.exec({ command: 'nice', cwd, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20_000, network: 'none', outputPath, binds: [{ path: cwd, writable: true }] });
    expect(r.exitCode).toBe(0);
    expect(Number((await readFile(outputPath, 'utf8')).trim())).toBe(Math.min(19, os.getPriority() + 10));
  });
});
