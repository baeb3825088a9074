import { execa } from 'execa';
import { chmod, cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs helper of the fixture, no types
import { addRegistryLine, REGISTRY_LINE } from '../fixtures/sixth-harness/add-registry-line.mjs';

/*
 * "A harness is one folder plus one registry line", shown on a copy of src/: the fixture's
 * echo-cli folder goes to src/agents/harnesses/echo-cli/, its one line into the registry, and
 * then the copy type-checks, lists echo-cli wherever harness names appear (spec parsing, the
 * unknown-harness errors, `bakeoff agents`), drives its CLI through its own setup and parser,
 * and passes the per-harness conformance suite, which is imported from the copy and so runs
 * here over all six harnesses.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = path.join(ROOT, 'test/fixtures/sixth-harness');
const work = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-sixth-harness-'));
const copy = path.join(work, 'src');
afterAll(() => rm(work, { recursive: true, force: true }));

await cp(path.join(ROOT, 'src'), copy, { recursive: true });
await cp(path.join(FIXTURE, 'echo-cli'), path.join(copy, 'agents/harnesses/echo-cli'), { recursive: true });
addRegistryLine(copy);
for (const file of ['tsconfig.json', 'package.json']) await cp(path.join(ROOT, file), path.join(work, file));
await symlink(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));

// The copy's own conformance suite: describe.each over the copy's registry, echo-cli included.
await import(path.join(copy, 'agents/harnesses/harnesses.test.ts'));

/** What the copy exports, imported through vitest like any source file. */
const load = async <T>(rel: string): Promise<T> => (await import(path.join(copy, rel))) as T;

describe('a sixth harness: one folder plus one registry line', () => {
  it('changes nothing but the new folder and the one line in the registry', async () => {
    // `A\t<copy>/<file>` for a new file, `M\t<src>/<file>` for a changed one (paths relative to the cwd)
    const status = await execa('git', ['diff', '--no-index', '--name-status', path.join(ROOT, 'src'), copy], { reject: false });
    const changed = status.stdout.trim().split('\n').map((line) => {
      const [kind, name] = line.split('\t') as [string, string];
      const full = path.resolve(name);
      return { kind, file: path.relative(full.startsWith(copy) ? copy : path.join(ROOT, 'src'), full) };
    });
    const [inFolder, elsewhere] = [changed.filter((c) => c.file.startsWith('agents/harnesses/echo-cli/')), changed.filter((c) => !c.file.startsWith('agents/harnesses/echo-cli/'))];
    expect(elsewhere).toEqual([{ kind: 'M', file: 'agents/harnesses/index.ts' }]);
    expect(inFolder.map((c) => c.file).sort()).toEqual(['echo-cli.mjs', 'index.ts', 'parse-stream.ts', 'test-recipe.ts'].map((f) => `agents/harnesses/echo-cli/${f}`));
    const line = await execa('git', ['diff', '--no-index', '-U0', path.join(ROOT, 'src/agents/harnesses/index.ts'), path.join(copy, 'agents/harnesses/index.ts')], { reject: false });
    expect(line.stdout.split('\n').filter((l) => /^[+-][^+-]/.test(l))).toEqual([`+${REGISTRY_LINE}`]);
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
    await agentsCommand('list', [], { json: true }, { stdout, stderr: new PassThrough(), cwd: work, env });
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
    expect(harness.parse(run.stdout, run.exitCode ?? null)).toMatchObject({ failed: false, finalMessage: 'echo: --fix it', model: 'echo-1', version: '1.0.0', turns: 1 });

    const recipe = recipes[0]!;
    const { args } = await recipe.setup({ home, workdir: work, url: 'http://127.0.0.1:1', prompt: 'hello' });
    const viaRecipe = await execa(bin, args, { reject: false });
    const events = viaRecipe.stdout.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(recipe.finalMessage(events)).toBe('echo: hello');
  });
});
