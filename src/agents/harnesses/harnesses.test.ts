import { describe, expect, it } from 'vitest';
import { UserError } from '../../errors.js';
import { HARNESSES, harnessNamed } from './index.js';
import type { HarnessName, HarnessSetup, SetupInput } from './types.js';

/** A model each harness takes, with an effort it lists for that model. */
const SAMPLE: Record<HarnessName, { model: string; effort: string }> = {
  'claude-code': { model: 'claude-opus-4-7', effort: 'high' },
  codex: { model: 'gpt-5.5', effort: 'high' },
  pi: { model: 'anthropic/claude-sonnet-4-5', effort: 'high' },
  opencode: { model: 'anthropic/claude-sonnet-4-5', effort: 'high' },
  'gemini-cli': { model: 'gemini-2.5-pro', effort: 'low' },
};

/** The prompt as each CLI reads it back: the words after `--`, `--prompt=…`, or the last argument. */
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
  model: SAMPLE[name].model,
  effort: SAMPLE[name].effort,
  baseUrl: 'http://127.0.0.1:4100',
  apiKey: 'sk-dummy-key',
  prices: null,
  ...overrides,
});

describe.each(Object.keys(HARNESSES) as HarnessName[])('harness %s', (name) => {
  const harness = HARNESSES[name];

  it('is registered under its own name with a pinned version and a bin under node_modules/.bin', () => {
    expect(harness.name).toBe(name);
    expect(harnessNamed(name)).toBe(harness);
    expect(harness.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(harness.bin).toMatch(/^node_modules\/\.bin\/[a-z]+$/);
    expect(harness.versionArgs).toEqual(['--version']);
  });

  it('reads its version from what --version prints', () => {
    expect(harness.parseVersion(`prefix ${harness.version} (suffix)\n`)).toBe(harness.version);
    expect(harness.parseVersion('no version here')).toBeNull();
  });

  it('lists the sample effort among the levels of the sample model', () => {
    expect(harness.efforts(SAMPLE[name].model)).toContain(SAMPLE[name].effort);
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

  it('passes a prompt with dashes, quotes, runs of spaces and newlines where no option parser reaches it', () => {
    const prompt = '- Change foo("bar")  to  --force\n\tand \'x\'  ';
    const setup = harness.setup(input(name, { prompt }));
    // pi alone has no `--`; its parser would take a leading `-` for an option.
    expect(promptIn(setup)).toBe(name === 'pi' ? ` ${prompt}` : prompt);
  });

  it('survives garbage, a cut-off line and an empty stream, and calls a session without its final event failed', () => {
    for (const stdout of ['', 'not json\n{"type":', '[1,2]\nnull\n"text"\n{"type":"unknown"}\n']) {
      const report = harness.parse(stdout, 0);
      expect(report.failed).toBe(true);
      expect(report.finalMessage).toBeNull();
    }
  });
});

describe('harnessNamed', () => {
  it('names the known harnesses when the name is unknown', () => {
    expect(() => harnessNamed('aider')).toThrow(UserError);
    expect(() => harnessNamed('aider')).toThrow(/claude-code, codex, pi, opencode, gemini-cli/);
    expect(() => harnessNamed('toString')).toThrow(UserError);
  });
});
