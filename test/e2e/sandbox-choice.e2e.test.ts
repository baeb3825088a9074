import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeoff, ROOT, tempDir } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

describe('choosing the sandbox', () => {
  it('doctor reports a working sandbox on this machine', async () => {
    const r = await bakeoff(['doctor', '--json']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      ready: boolean;
      sandbox: { name: string; ok: boolean }[];
      agents: { name: string; ok: boolean; detail: string }[];
      mounts: { target: string; stores: { path: string; kind: string; packages: number; readable: string[] }[] }[];
    };
    expect(out.ready).toBe(true);
    expect(out.sandbox.find((c) => c.name === 'sandbox')?.ok).toBe(true);
    // the five agent CLIs, installed at their pinned versions by scripts/install.sh
    expect(out.agents.map((a) => [a.name, a.ok])).toEqual([['claude-code', true], ['codex', true], ['pi', true], ['opencode', true], ['gemini-cli', true]]);
    // what every sandbox mounts besides the task: of the machine's Python packages, pytest (the tests' runner) is readable, and not all that is installed
    expect(out.mounts.slice(0, 2).map((m) => m.target)).toEqual(['/usr', '/etc']);
    const python = out.mounts.flatMap((m) => m.stores).filter((s) => s.kind === 'python site-packages');
    expect(python.some((s) => s.readable.includes('pytest')), JSON.stringify(python)).toBe(true);
    expect(python.some((s) => s.readable.length < s.packages), JSON.stringify(python)).toBe(true);
  });

  it('refuses to run when the sandbox tools are missing, and says what to install (exit 3)', async () => {
    const r = await bakeoff(['run', path.join(ROOT, 'examples/starter'), '--agent', 'noop', '--out', await tempDir()], {
      env: { PATH: '/nonexistent' },
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/bwrap \(apt-get install bubblewrap\)/);
  });

  it('records --unsafe-no-sandbox in every run and warns in every report', async () => {
    const suite = await validatedTiny();
    const out = await tempDir();
    const r = await bakeoff(['run', suite, '--agent', 'gold', '--runs', '1', '--out', out, '--json', '--unsafe-no-sandbox']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/WARNING: --unsafe-no-sandbox/);
    const json = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { unsafeRuns: number; runs: unknown[] };
    expect(json.unsafeRuns).toBe(json.runs.length);
    expect((await bakeoff(['report', out])).stdout).toMatch(/^WARNING: \d+ run\(s\) were made with --unsafe-no-sandbox/);
  });

  it('takes the backend by name: --sandbox unsafe-no-sandbox is the alias\'s backend, recorded in every run; two different names are refused (exit 2)', async () => {
    const suite = await validatedTiny();
    const out = await tempDir();
    const r = await bakeoff(['run', suite, '--agent', 'gold', '--runs', '1', '--out', out, '--json', '--sandbox', 'unsafe-no-sandbox']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/WARNING: --unsafe-no-sandbox/);
    const json = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { unsafeRuns: number; sandboxes: string[]; runs: unknown[] };
    expect(json.sandboxes).toEqual(['unsafe-no-sandbox']);
    expect(json.unsafeRuns).toBe(json.runs.length);
    const both = await bakeoff(['run', suite, '--agent', 'gold', '--out', await tempDir(), '--sandbox', 'bwrap', '--unsafe-no-sandbox']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--unsafe-no-sandbox is --sandbox unsafe-no-sandbox, and --sandbox bwrap names another backend');
  });
});
