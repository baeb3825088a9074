import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../errors.js';
import { exampleOf, HARNESS_NAMES, HARNESSES, harnessNamed, type HarnessName } from './index.js';
import { STREAM_READERS, transcriptOf } from './stream-readers.js';
import type { HarnessSetup, SetupInput } from './types.js';
import { parseVersionOf, versionArgsOf } from '../install-harness.js';
import { levelSourceOf } from '../effort-levels.js';
import { parseHarnessSpec } from '../harness-spec.js';
import { testRecipeOf } from './test-recipe.js';

/** Where the CLI gets its prompt: stdin (OpenCode), after `--`, `--prompt=`, or the last argument. */
function promptIn(setup: HarnessSetup): string | undefined {
  const { argv } = setup;
  if (setup.stdin !== undefined) return setup.stdin;
  const dashes = argv.indexOf('--');
  if (dashes >= 0) return argv.slice(dashes + 1).join(' ');
  const flag = argv.find((arg) => arg.startsWith('--prompt='));
  return flag?.slice('--prompt='.length) ?? argv.at(-1);
}

const input = (name: HarnessName, overrides: Partial<SetupInput> = {}): SetupInput => ({
  installDir: `/opt/harnesses/${name}`,
  home: '/home/agent',
  workspace: '/work/ws',
  prompt: 'Fix the failing test.',
  model: exampleOf(HARNESSES[name]).model,
  effort: exampleOf(HARNESSES[name]).effort,
  baseUrl: 'http://127.0.0.1:4100',
  apiKey: 'sk-dummy-key',
  prices: null,
  ...overrides,
});

describe.each(HARNESS_NAMES)('harness %s', (name) => {
  const harness: (typeof HARNESSES)[HarnessName] = HARNESSES[name];

  it('is registered under its own name, in a folder of that name, with a pinned version and a bin under node_modules/.bin', () => {
    expect(harness.name).toBe(name);
    expect(existsSync(new URL(`./${name}/index.ts`, import.meta.url)), `src/agents/harnesses/${name}/index.ts`).toBe(true);
    expect(harnessNamed(name)).toBe(harness);
    expect(harness.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(harness.bin).toMatch(/^node_modules\/\.bin\/[a-z][a-z-]*$/);
    expect(versionArgsOf(harness)).toEqual(['--version']);
  });

  it('turns its own web tools off on the closed web and leaves them on the open web, saying how', () => {
    const { names, switch: how } = harness.webTools;
    expect(how.length, 'webTools.switch says how, or why none is needed').toBeGreaterThan(10);
    const closed = JSON.stringify(harness.setup(input(name)));
    const open = JSON.stringify(harness.setup(input(name, { openWeb: true })));
    for (const tool of names) {
      expect(closed, `the closed-web setup names ${tool} to turn it off`).toContain(tool);
      expect(open, `the open-web setup leaves ${tool} alone`).not.toContain(tool);
    }
    if (names.length === 0) expect(open).toBe(closed);
  });

  it('reads its version from what --version prints', () => {
    expect(parseVersionOf(harness, `prefix ${harness.version} (suffix)\n`)).toBe(harness.version);
    expect(parseVersionOf(harness, 'no version here')).toBeNull();
  });

  it('lists the example effort among the levels of the example model, from the CLI\'s own catalog or a table that says where it comes from', async () => {
    const { model, effort } = exampleOf(harness);
    expect(harness.catalog !== undefined || (harness.efforts !== undefined && (harness.effortsSource ?? '').length > 0), 'a catalog reader, or efforts with effortsSource').toBe(true);
    // no Codex home: the bundled catalog of the installed CLI
    const levels = await levelSourceOf(harness, { PATH: process.env.PATH, HOME: '/nonexistent-home' });
    if (effort === null) expect(levels.levels(model) ?? []).toEqual([]);
    else expect(levels.levels(model)).toContain(effort);
    expect(levels.kind).toBe(harness.catalog ? 'cli' : 'table');
  });

  it('ships the recipe its real-CLI test runs (test/model-server/real-clis.test.ts) and the agent its e2e tests run', async () => {
    expect(existsSync(new URL(`./${name}/test-recipe.ts`, import.meta.url)), `src/agents/harnesses/${name}/test-recipe.ts`).toBe(true);
    const { e2eSpec } = await testRecipeOf(name);
    expect(parseHarnessSpec(e2eSpec)).toMatchObject({ harness: name });
  });

  it('starts the CLI from the install prefix, passes the prompt (as one argument or on stdin) and keeps the key out of files', () => {
    const setup = harness.setup(input(name));
    // Claude Code's argv starts with a /bin/sh prelude that then execs the CLI.
    expect(setup.argv).toContain(`/opt/harnesses/${name}/${harness.bin}`);
    expect(setup.argv[0]).toBe(name === 'claude-code' ? '/bin/sh' : `/opt/harnesses/${name}/${harness.bin}`);
    expect(promptIn(setup)).toBe('Fix the failing test.');
    expect(Object.values(setup.env)).toContain('sk-dummy-key');
    for (const content of Object.values(setup.homeFiles)) expect(content).not.toContain('sk-dummy-key');
    const everything = JSON.stringify(setup);
    expect(everything).toContain('http://127.0.0.1:4100');
    for (const file of Object.keys(setup.homeFiles)) expect(file).not.toMatch(/^\/|\.\./);
  });

  it('passes a prompt with dashes, quotes, runs of spaces and newlines on stdin, where no option parser reaches it', () => {
    const prompt = '- Change foo("bar")  to  --force\n\tand \'x\'  ';
    const setup = harness.setup(input(name, { prompt }));
    expect(setup.stdin).toBe(prompt);
    expect(promptIn(setup)).toBe(prompt);
    // no argument carries the prompt (pi gets the trailing whitespace its stdin trim drops, whitespace only)
    expect(setup.argv.filter((arg) => arg.includes('Change'))).toEqual([]);
  });

  it('survives garbage, a cut-off line and an empty stream, and calls a session without its final event failed', () => {
    for (const stdout of ['', 'not json\n{"type":', '[1,2]\nnull\n"text"\n{"type":"unknown"}\n']) {
      const report = STREAM_READERS[name].parse(stdout, 0);
      expect(report.failed).toBe(true);
      expect(report.finalMessage).toBeNull();
    }
  });

  it('tells garbage, a cut-off line and an empty stream as an empty transcript, and is what transcriptOf uses', () => {
    for (const stdout of ['', 'not json\n{"type":', '[1,2]\nnull\n"text"\n{"type":"unknown"}\n']) {
      expect(STREAM_READERS[name].transcript(stdout)).toEqual([]);
      expect(transcriptOf(name, stdout)).toEqual([]);
    }
  });
});

describe('transcriptOf', () => {
  it('has no transcript for a built-in agent (gold, noop, patch:, command:), whose sessions print no stream', () => {
    expect(transcriptOf('builtin', '{"type":"assistant"}\n')).toBeNull();
    expect(transcriptOf('toString', '')).toBeNull();
  });
});

describe('harnessNamed', () => {
  it('names the known harnesses when the name is unknown', () => {
    expect(HARNESS_NAMES).toEqual(expect.arrayContaining(['claude-code', 'codex', 'pi', 'opencode', 'gemini-cli']));
    expect(() => harnessNamed('aider')).toThrow(UserError);
    expect(() => harnessNamed('aider')).toThrow(`harness "aider": expected one of ${HARNESS_NAMES.join(', ')}, received "aider"`);
    expect(() => harnessNamed('codec')).toThrow('(did you mean "codex"?)');
    expect(() => harnessNamed('toString')).toThrow(UserError);
  });
});
