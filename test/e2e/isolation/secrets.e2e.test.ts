import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxMounts } from '../../../src/sandbox/index.js';
import { copySuite, tempDir } from '../helpers.js';
import { agent, artifacts, bake, bakeScratch, dbRuns, encodeArg, probeOutput, reportRuns, runOf, TINY, validate } from './iso-helpers.js';

/*
 * Nothing secret is reachable from inside an agent session: the hidden tests, the suite, the
 * results folder, other runs' workspaces, the host's home and project folders — not by their
 * host paths, not by searching the tree, not through /proc. A random canary is planted in both
 * hidden tests (and in the other files the probe goes for); it must appear nowhere in what the
 * probe could write out (its report, its log, its change).
 */

const SANDBOX_UID = 64123; // DEFAULT_SANDBOX_UID: what a real workspace's files belong to
const TOOLCHAIN_DIRS = ['.pyenv', '.cargo', '.rustup', '.nvm', '.volta', '.bun', '.deno'];

/** Every distribution the host's Python finds, with its metadata file. */
const HOST_DISTS = 'import importlib.metadata as m, json; print(json.dumps({d.metadata["Name"]: str(d._path / "METADATA") for d in m.distributions() if hasattr(d, "_path")}))';
/** PEP 503 names, as bakeoff's package folders list them. */
const normalized = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');

type Probe = Record<string, unknown> & { computedRunIds: Record<string, string>; pidsSeen: string[]; task: string };

describe('a probe agent looking for secrets', () => {
  const canary = `ISOLATION-CANARY-${randomBytes(8).toString('hex')}`;
  let suite: string;
  let out: string;
  let hidden: string[];
  let otherRunRoot: string;
  let otherFiles: string[];
  let suiteHash: string;

  beforeAll(async () => {
    suite = await copySuite(TINY);
    hidden = [
      path.join(suite, 'tasks/add/orders/1/hidden/test/math.hidden.test.mjs'),
      path.join(suite, 'tasks/py-add/orders/1/hidden/tests/test_calc_hidden.py'),
    ];
    await appendFile(hidden[0]!, `// ${canary}\n`);
    await appendFile(hidden[1]!, `# ${canary}\n`);
    await validate(suite);
    suiteHash = (JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { suite: { hash: string } }).suite.hash;

    // A results folder that already holds something, and another bake's workspace laid out (and
    // owned) like a real one, each with the canary in it.
    out = await tempDir('bakeoff-iso-secrets-');
    await writeFile(path.join(out, 'planted.txt'), `${canary}\n`);
    otherRunRoot = path.join('/tmp/bakeoff-scratch', `iso-other-${randomBytes(4).toString('hex')}`);
    const otherWs = path.join(otherRunRoot, '0123456789abcdef0123', 'agent', 'ws');
    await mkdir(path.join(otherWs, 'test'), { recursive: true, mode: 0o711 });
    otherFiles = [path.join(otherWs, 'test/math.hidden.test.mjs'), path.join(otherWs, 'beacon.txt')];
    for (const f of otherFiles) {
      await writeFile(f, `${canary}\n`, { mode: 0o644 });
      await chown(f, SANDBOX_UID, SANDBOX_UID);
    }
  });

  afterAll(async () => {
    if (otherRunRoot) await rm(otherRunRoot, { recursive: true, force: true });
  });

  it('finds no hidden test, suite, results, other run or host folder, by path, search or /proc; of the machine\'s packages only the test runners', async () => {
    // what the host's Python finds installed, and where: the probe looks for what the task's setup did not install
    const host = JSON.parse((await execa('python3', ['-c', HOST_DISTS], { cwd: '/tmp' })).stdout) as Record<string, string>;
    const readable = new Set((await sandboxMounts()).flatMap((m) => m.stores.flatMap((s) => s.readable)));
    const hiddenDists = Object.keys(host).filter((name) => !readable.has(normalized(name)) && existsSync(host[name]!));
    expect(hiddenDists.length, 'this test looks for a Python package installed on the machine beside pytest (pip install requests)').toBeGreaterThan(0);
    const nodeGlobal = path.join(path.dirname(path.dirname(process.execPath)), 'lib/node_modules');
    const config = { hidden, suite, results: out, other: otherFiles, suiteHash, tasks: ['add', 'py-add'], hostPackageFiles: hiddenDists.slice(0, 5).map((name) => host[name]!), nodeGlobal };
    const spec = agent('probe-secrets.mjs', encodeArg(config));
    // the encoded argument names no path: the command line itself shows the agent nothing
    expect(spec).not.toContain(suite);
    const result = await bake(suite, [spec], { out, concurrency: 2 });
    expect(result.exitCode, result.stderr).toBe(0);

    const runs = await reportRuns(out);
    expect(runs.map((r) => r.task).sort()).toEqual(['add', 'py-add']);
    const probes: Record<string, Probe> = {};
    for (const run of runs) {
      expect(run.outcome, `${run.task}: ${run.outcomeDetail}`).not.toBe('void');
      const { log, patch } = await artifacts(out, run.id);
      // the probe did write its findings into the workspace: they are part of the change
      expect(patch).toContain('probe.json');
      expect(log, `${run.task}: the canary leaked into agent.log`).not.toContain(canary);
      expect(patch, `${run.task}: the canary leaked into change.patch`).not.toContain(canary);
      probes[run.task] = await probeOutput<Probe>(out, run.id);
    }

    for (const [task, p] of Object.entries(probes)) {
      const at = (key: string): string => String(p[key]);
      const label = (key: string): string => `${task} ${key}: ${at(key).slice(0, 300)}`;
      // By host path: nothing of the suite, the results folder or the other run exists.
      const absent = [
        'readHidden0', 'readHidden1', 'statHidden0', 'statHidden1', 'readdirHiddenDir0', 'readdirHiddenDir1',
        'readdirSuite', 'readSuiteYaml', 'readdirResults', 'readResultsDb', 'readResultsPlanted', 'readOther0', 'readOther1',
        'readdirRootCache', 'readdirPrepared', 'readWorkPackageJson', 'readWorkNotes',
        'readHiddenViaProc1Root0', 'readHiddenViaProc1Root1', 'readSuiteViaProc1Root',
        // the overlay's lower dir (the prepared repo), whose host path mountinfo gives away
        ...(p.lowerdir ? ['readdirLowerdir', 'readdirLowerdirParent'] : []),
      ];
      for (const key of absent) expect(at(key), label(key)).toBe('ENOENT');
      // readable through /etc, but mounted over (and not the sandbox uid's)
      expect(at('readShadow'), label('readShadow')).toMatch(/^(EACCES|ENOENT|OK )$/);
      // the host's home holds only the read-only toolchains; /work nothing but the agent's own script
      const rootEntries = at('readdirRoot').startsWith('OK ') ? (JSON.parse(at('readdirRoot').slice(3)) as string[]) : [];
      for (const e of rootEntries) expect(TOOLCHAIN_DIRS, label('readdirRoot')).toContain(e);
      expect(at('readdirHome'), label('readdirHome')).toBe('OK ["agent"]');

      // Searching the whole tree finds no hidden test, no orders/ or hidden/ folder, no canary.
      for (const key of ['findHiddenTests', 'findHiddenBasenames', 'grepCanaryPrefix']) expect(at(key), label(key)).toBe('OK ');
      // (/usr has unrelated folders named orders/ or hidden/: none is a task's)
      expect(at('findOrdersFolders'), label('findOrdersFolders')).not.toMatch(/\/tasks\/[^/\n]+\/orders|\/orders\/\d+\/hidden/);
      expect(at('findOrdersFolders'), label('findOrdersFolders')).not.toContain(suite);

      // Other runs: the scratch root shows this bake only, the bake's folder this run only, and
      // the concurrent run's workspace — whose path the probe computed correctly — is absent.
      expect(at('readdirScratchRoot'), label('readdirScratchRoot')).toBe(`OK ${JSON.stringify([path.basename(bakeScratch(out))])}`);
      const ownId = runOf(runs, spec, task).id;
      expect(at('readdirBakeScratch'), label('readdirBakeScratch')).toBe(`OK ${JSON.stringify([ownId])}`);
      for (const run of runs) expect(p.computedRunIds[run.task], `${task}: computed run id of ${run.task}`).toBe(run.id);
      const other = task === 'add' ? 'py-add' : 'add';
      for (const key of [`readdirSiblingRun_${other}`, `readSiblingBeacon_${other}`, `readSiblingHidden_${other}`]) {
        expect(at(key), label(key)).toBe('ENOENT');
      }
      expect(JSON.stringify(p), `${task} saw the other run's beacon`).not.toContain(`BEACON-${other}`);

      // /proc: a private pid namespace (bwrap, sh, node: no host process) whose roots are the sandbox's.
      expect(p.pidsSeen.length, `${task} pids ${JSON.stringify(p.pidsSeen)}`).toBeLessThanOrEqual(4);
      for (const pid of p.pidsSeen) {
        const cmdline = p[`proc${pid}Cmdline`];
        if (cmdline === undefined) continue; // the probe itself
        expect(String(cmdline), `${task} pid ${pid}`).toMatch(/^OK (bwrap|\/bin\/sh|sh|node) /);
        expect(String(p[`proc${pid}RootSuite`]), `${task} pid ${pid} root`).toBe('ENOENT');
      }
      // the mount table names no suite or results path; the only open file in the results folder is the agent's own log
      expect(at('mountinfo')).not.toContain(suite);
      expect(at('mountinfo')).not.toContain(out);
      const fds = JSON.parse(at('ownFds').replace(/^OK /, '')) as string[];
      for (const fd of fds.filter((f) => f.includes(out))) expect(fd, `${task} fd`).toMatch(/\/order-1\/agent\.log$/);
      expect(fds.some((f) => f.includes(suite)), `${task} fds ${JSON.stringify(fds)}`).toBe(false);
      expect(at('ownStatus'), label('ownStatus')).toMatch(/CapEff:\\t0000000000000000/);

      // the machine's packages: Python finds pytest and the installers, none of the others; their files are absent by host path
      const dists = (JSON.parse(at('pythonDists').replace(/^OK /, '')) as string[]).map(normalized);
      expect(dists, label('pythonDists')).toContain('pytest');
      expect(dists.filter((name) => !readable.has(name)), label('pythonDists')).toEqual([]);
      hiddenDists.slice(0, 5).forEach((_, i) => expect(at(`readHostPackage${i}`), label(`readHostPackage${i}`)).toBe('ENOENT'));
      expect(at('readdirNodeGlobal'), label('readdirNodeGlobal')).toMatch(/^(ENOENT|OK \[("(npm|corepack|yarn|pnpm)",?)*\])$/);
    }

    // The two runs overlapped in time, so "the other run's workspace" existed while each looked for it.
    const [a, b] = dbRuns(out);
    expect(a!.started_at < b!.finished_at && b!.started_at < a!.finished_at, JSON.stringify(dbRuns(out))).toBe(true);
    expect(result.cgroupsLeft).toEqual([]);
    expect(result.mountsLeft).toEqual([]);
  });

  it('cannot be shown a host path by naming it on the agent command line', async () => {
    // Whoever runs the bake writes the command line; naming the hidden test, the suite or an
    // existing results folder there (a path in a flag, say) must not make them visible inside.
    const named = [hidden[0]!, suite, out];
    const spec = agent('probe-named-paths.mjs', ...named);
    const out2 = await tempDir('bakeoff-iso-named-');
    const result = await bake(suite, [spec], { out: out2, concurrency: 1 });
    if (result.exitCode === 2) {
      // refusing such a command line is a fine answer too
      expect(result.stderr).toMatch(/agent/i);
      return;
    }
    expect(result.exitCode, result.stderr).toBe(0);
    for (const run of await reportRuns(out2)) {
      const { log, patch } = await artifacts(out2, run.id);
      expect(log, `${run.task}: agent.log`).not.toContain(canary);
      expect(patch, `${run.task}: change.patch`).not.toContain(canary);
      for (const p of named) expect(log, `${run.task}: ${p}`).toContain(`${p}: ENOENT`);
    }
  });

  it('code under test, run by the grader, sees no suite, results or host either', async () => {
    const out3 = await tempDir('bakeoff-iso-grade-');
    const spec = agent('grade-time-probe.mjs', encodeArg({ suite, results: out3 }));
    const result = await bake(suite, [spec], { out: out3, concurrency: 1 });
    expect(result.exitCode, result.stderr).toBe(0);
    const run = runOf(await reportRuns(out3), spec, 'add');
    expect(run.outcome, run.outcomeDetail ?? '').toBe('failed');
    const log = await readFile(path.join(out3, 'runs', run.id, 'order-1/grade/test-output.log'), 'utf8');
    const lines = log.split('\n').filter((l) => l.startsWith('GRADE-PROBE '));
    // the probe ran inside the grading sandbox (each test file imports the module)
    expect(lines.length, log.slice(0, 3000)).toBeGreaterThan(0);
    for (const line of lines) {
      const p = JSON.parse(line.slice('GRADE-PROBE '.length)) as Record<string, string>;
      for (const key of ['readGoldPatch', 'readdirSuiteHidden', 'readdirSuite', 'readdirResults', 'readResultsDb', 'readdirRootCache']) {
        expect(p[key], `${key}: ${p[key]}`).toBe('ENOENT');
      }
      expect(p.netDevices).toBe('OK ["lo"]');
      expect(p.processes, p.processes).not.toMatch(/bakeoff\.js|vitest/);
      expect(p.capEff).toBe('OK "CapEff:\\t0000000000000000"');
    }
  });
});
