import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturedStream, setupInputOf, stubSuccessReport } from '../captured-streams.test-support.js';
import { claudeEfforts } from './efforts.js';
import { claudeCode } from './index.js';

const reader = await claudeCode.stream();

const fixture = (file: string): string => capturedStream('claude-code', file);

/** A directory with an `id` that reports the given uid, to try the root check without being root. */
function fakeIdDir(uid: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-id-'));
  writeFileSync(path.join(dir, 'id'), `#!/bin/sh\necho ${uid}\n`);
  chmodSync(path.join(dir, 'id'), 0o755);
  return dir;
}

describe('parse on streams captured from claude 2.1.332', () => {
  it('adds cache reads and writes to the uncached input of a successful session', () => {
    const report = reader.parse(fixture('success.jsonl'), 0);
    expect(report).toEqual(stubSuccessReport({
      // Stub turns: uncached 1111 + 1234, cache read 222 + 567, cache write 33 + 8, output 44 + 89, thinking 5 + 7.
      tokens: { inputTokens: 2345 + 789 + 41, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: 12 },
      costUsd: 0.01570075,
      turns: 2,
      model: 'claude-opus-4-5',
      version: '2.1.332',
    }));
  });

  it('reads the notes capture (§5.1) the same way', () => {
    const report = reader.parse(fixture('notes-success.jsonl'), 0);
    expect(report.tokens).toEqual({ inputTokens: 3175, cacheReadTokens: 789, cacheWriteTokens: 41, outputTokens: 133, reasoningTokens: 12 });
    expect(report.costUsd).toBe(0.00942045);
    expect(report.model).toBe('claude-sonnet-4-5');
  });

  it('calls a session failed on is_error even though its subtype says success', () => {
    const stdout = fixture('failure.jsonl');
    expect(stdout).toContain('"subtype":"success"');
    const report = reader.parse(stdout, 1);
    expect(report.failed).toBe(true);
    expect(report.finalMessage).toBeNull();
    expect(report.errors).toEqual([expect.stringMatching(/^API Error: 500/)]);
    expect(report.tokens).toEqual({ inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 });
    expect(report.costUsd).toBe(0);
    expect(report.version).toBe('2.1.332');
  });

  it('calls a stream cut off before the result event failed but keeps what it knew', () => {
    const lines = fixture('success.jsonl').trimEnd().split('\n');
    const report = reader.parse(lines.slice(0, -1).join('\n'), null);
    expect(report.failed).toBe(true);
    expect(report.tokens).toBeNull();
    expect(report.version).toBe('2.1.332');
  });

  it('takes the billed model when Claude Code answered with another than the init event names', () => {
    const init = { type: 'system', subtype: 'init', model: 'claude-opus-4-1', claude_code_version: '2.1.332' };
    const result = {
      type: 'result', subtype: 'success', is_error: false, result: 'ok', num_turns: 1, total_cost_usd: 0.1,
      usage: { input_tokens: 10, output_tokens: 5 },
      modelUsage: {
        'claude-haiku-4-5': { inputTokens: 3, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
        'claude-opus-5-5': { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 2, cacheCreationInputTokens: 1 },
      },
    };
    const report = reader.parse(`${JSON.stringify(init)}\n${JSON.stringify(result)}\n`, 0);
    expect(report.model).toBe('claude-opus-5-5');
    // Both models' tokens count; neither reported thinking.
    expect(report.tokens).toEqual({ inputTokens: 16, cacheReadTokens: 2, cacheWriteTokens: 1, outputTokens: 6, reasoningTokens: null });
  });
});

describe('efforts', () => {
  it.each([
    ['claude-sonnet-4-5', []],
    ['claude-sonnet-4-5-20250929', []],
    ['claude-haiku-4-5', []],
    ['claude-3-7-sonnet', []],
    ['claude-opus-4-5', ['low', 'medium', 'high']],
    ['claude-sonnet-4-6', ['low', 'medium', 'high', 'max']],
    ['claude-opus-4-7', ['low', 'medium', 'high', 'xhigh', 'max']],
    ['some-gateway-model', ['low', 'medium', 'high', 'xhigh', 'max']],
  ])('lists %s as %j, as the binary sends them', (model, levels) => {
    expect(claudeEfforts(model)).toEqual(levels);
  });
});

describe('setup', () => {
  const input = setupInputOf({ installDir: '/opt/claude', model: 'claude-opus-4-7', effort: 'xhigh' });

  it('runs print mode with the stream-json events and the effort flag, the prompt on stdin', () => {
    const setup = claudeCode.setup(input);
    expect(setup.argv).toEqual([
      '/bin/sh', '-c', expect.stringContaining('IS_SANDBOX=1'),
      '/opt/claude/node_modules/.bin/claude', '-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions',
      // the closed web: Claude Code's own web tools are off (the proxy withholds the provider's)
      '--disallowedTools', 'WebSearch,WebFetch',
      '--model', 'claude-opus-4-7', '--effort', 'xhigh',
    ]);
    expect(setup.stdin).toBe('Do it');
    expect(setup.env).not.toHaveProperty('IS_SANDBOX');
    expect(setup.env).toMatchObject({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'k', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' });
    expect(setup.homeFiles).toEqual({});
  });

  it('on a subscription: a dummy OAuth token of the plan\'s shape and no API key at all (Claude Code would prefer the key)', () => {
    const setup = claudeCode.setup({ ...input, subscription: { plan: 'max' } });
    expect(setup.env).toMatchObject({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', CLAUDE_CODE_OAUTH_TOKEN: expect.stringMatching(/^sk-ant-oat01-bakeoff-dummy-/) });
    expect(setup.env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(setup.env).not.toHaveProperty('ANTHROPIC_AUTH_TOKEN');
  });

  it('sets IS_SANDBOX at run time only for a root session, and execs the CLI with its arguments unchanged', () => {
    const [shell, dashC, script] = claudeCode.setup(input).argv;
    const run = (uid: string) => {
      const dir = fakeIdDir(uid);
      try {
        const probe = ['/bin/sh', '-c', 'printf "%s|%s|%s" "${IS_SANDBOX:-unset}" "$1" "$2"', 'sh', '-x y', '--'];
        return execFileSync(shell ?? '', [dashC ?? '', script ?? '', ...probe], { env: { PATH: `${dir}:/usr/bin:/bin` }, encoding: 'utf8' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    expect(run('0')).toBe('1|-x y|--');
    expect(run('1000')).toBe('unset|-x y|--');
  });

  it('leaves the effort flag out when no effort is asked for', () => {
    expect(claudeCode.setup({ ...input, effort: null }).argv).not.toContain('--effort');
  });
});
