import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { TIER_PROJECTS, TIERS } from './tiers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
    const rel = `${dir}/${name}`;
    if (name === 'node_modules' || rel === 'test/fixtures') continue;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...testFiles(rel));
    else if (name.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

/** The projects (tiers) a file runs in: its include matches and its exclude does not. */
function projectsOf(file: string): string[] {
  return TIER_PROJECTS.filter((p) => picomatch.isMatch(file, [...p.include]) && !picomatch.isMatch(file, [...(p.exclude ?? [])])).map((p) => p.name);
}

describe('test tiers', () => {
  const files = [...testFiles('src'), ...testFiles('test')];

  it('put every test file in exactly one tier', () => {
    expect(files.length).toBeGreaterThan(150);
    const wrong = files.map((f) => ({ f, in: projectsOf(f) })).filter((x) => x.in.length !== 1);
    expect(wrong).toEqual([]);
  });

  it('have a script each, and `npm test` runs every project in one vitest run after the build and the type check', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const tier of TIERS) {
      const projects = TIER_PROJECTS.filter((p) => p.tier === tier).map((p) => p.name);
      const script = scripts[`test:${tier}`] ?? '';
      const named = [...script.matchAll(/--project (\S+)/g)].map((m) => m[1]);
      expect(named.sort(), `test:${tier}: ${script}`).toEqual(projects.sort());
    }
    // the build and the type check side by side (tsc uses one core each), then every project
    expect(scripts['test']).toBe('npm run build & b=$!; npm run typecheck && wait $b && vitest run');
  });

  it('keep the unit tier off the machine: no sandbox, mount, cgroup, busy loop, real agent CLI or built CLI', () => {
    const machine = /\b(createBwrapSandbox|createWorkspace|freshScratchRoot|installedCli|startRedis)\(|\bSANDBOX_BACKENDS\b|'taskset'|\/sys\/fs\/cgroup|from '(\.\.\/)+e2e\/helpers\.js'/;
    const unit = files.filter((f) => projectsOf(f)[0] === 'unit' && f !== 'test/setup/tiers.test.ts');
    expect(unit.filter((f) => machine.test(readFileSync(path.join(ROOT, f), 'utf8')))).toEqual([]);
  });
});
