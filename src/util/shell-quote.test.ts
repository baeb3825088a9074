import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quoteNodeOption, quoteShellArg } from './shell-quote.js';

const TRICKY = ["plain", "with space", "it's", "$HOME `id` \"q\" \\ *", "line\nbreak", ""];

describe('quoteShellArg', () => {
  it('passes any string through sh as one unchanged argument', () => {
    for (const value of TRICKY) {
      const run = spawnSync('sh', ['-c', `printf '%s|' ${quoteShellArg(value)}`], { encoding: 'utf8' });
      expect(run.stdout).toBe(`${value}|`);
    }
    expect(quoteShellArg("it's")).toBe(`'it'\\''s'`);
  });
});

describe('quoteNodeOption', () => {
  it('leaves plain options alone', () => {
    expect(quoteNodeOption('--test-reporter=spec')).toBe('--test-reporter=spec');
  });

  it('quotes options that Node would otherwise split or unescape', () => {
    const value = '--require=/tmp/a dir/x.cjs';
    const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(process.execArgv.join("|"))'], {
      env: { ...process.env, NODE_OPTIONS: `${quoteNodeOption(value)} --no-warnings` },
      encoding: 'utf8',
    });
    // Node reports the unquoted option in its error: it tried to load exactly that path.
    expect(run.stderr).toContain("Cannot find module '/tmp/a dir/x.cjs'");
  });
});
