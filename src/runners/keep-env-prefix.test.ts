import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { keepEnvPrefix } from './keep-env-prefix.js';

/** What `sh` prints for a command after the rewrite, with BAKEOFF_P set as bakeoff sets it. */
function run(command: string): string {
  const rewritten = keepEnvPrefix(command, 'PYTHONPATH', '"$BAKEOFF_P":');
  return spawnSync('sh', ['-c', rewritten], { env: { PATH: process.env['PATH'] ?? '', BAKEOFF_P: '/plugin dir', PYTHONPATH: '/plugin dir' }, encoding: 'utf8' }).stdout;
}

describe('keepEnvPrefix', () => {
  it('puts bakeoff\'s part in front of every value the command assigns, in each form the shell takes', () => {
    expect(run('PYTHONPATH=src sh -c \'printf %s "$PYTHONPATH"\'')).toBe('/plugin dir:src');
    expect(run('PYTHONPATH="src:.deps" sh -c \'printf %s "$PYTHONPATH"\'')).toBe('/plugin dir:src:.deps');
    expect(run('export PYTHONPATH=src; printf %s "$PYTHONPATH"')).toBe('/plugin dir:src');
    expect(run('env PYTHONPATH=lib printenv PYTHONPATH')).toBe('/plugin dir:lib\n');
    expect(run('cd . && PYTHONPATH=a printenv PYTHONPATH && PYTHONPATH=b printenv PYTHONPATH')).toBe('/plugin dir:a\n/plugin dir:b\n');
  });

  it('leaves a value that already reads the variable, quoted text and other names alone', () => {
    expect(run('PYTHONPATH=src:$PYTHONPATH printenv PYTHONPATH')).toBe('src:/plugin dir\n');
    expect(run('PYTHONPATH="src:${PYTHONPATH}" printenv PYTHONPATH')).toBe('src:/plugin dir\n');
    expect(run("echo 'PYTHONPATH=x' \"PYTHONPATH=y\"")).toBe('PYTHONPATH=x PYTHONPATH=y\n');
    expect(keepEnvPrefix('MY_PYTHONPATH=x true', 'PYTHONPATH', 'P:')).toBe('MY_PYTHONPATH=x true');
    expect(keepEnvPrefix('python -m pytest -q', 'PYTHONPATH', 'P:')).toBe('python -m pytest -q');
  });
});
