import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, codeDigest, openProbeCache } from '../util/index.js';
import { useTempDirs } from '../util/temp-dirs.test-support.js';
import type { NotedAdmission } from './admit-checks-task.js';
import { Controls } from '../suite/index.js';
import { admissionControls, rememberVerdict, verdictKey } from './verdict-cache.js';

const tempDir = useTempDirs();

describe('admissionControls', () => {
  const suiteWith = (controls: Record<string, unknown>) => ({ controls: Controls.parse(controls), controlsDigest: `digest of ${JSON.stringify(controls)}` });
  const plain = (controls: Record<string, unknown>) => admissionControls(suiteWith(controls), false).controlsDigest;

  it('keeps a plain admission when only the agent\'s clock changed (runs, session clock, budget, timeout rule), and no other', () => {
    const base = plain({});
    for (const agentOnly of [{ runsPerTask: 1 }, { sessionWallClockSec: 3 }, { agentBudget: { totalSec: 2, scope: 'replay', stopOnError: true } }, { timeoutIsVoid: true }]) {
      expect(plain(agentOnly), JSON.stringify(agentOnly)).toBe(base);
    }
    for (const read of [{ testWallClockSec: 30 }, { setupWallClockSec: 30 }, { memoryMb: 512 }, { cpus: 1 }, { outputMb: 7 }, { network: 'model-api+web' }, { protectedPaths: ['README.md'] }, { seeds: [2] }, { levels: [1, 2] }]) {
      expect(plain(read), JSON.stringify(read)).not.toBe(base);
    }
  });

  it('keeps an adversarial admission under every control: its exploits and hackers run through sessions', () => {
    const suite = suiteWith({ sessionWallClockSec: 3 });
    expect(admissionControls(suite, true)).toEqual({ controlsDigest: suite.controlsDigest });
    expect(admissionControls(suite, true).controlsDigest).not.toBe(admissionControls(suiteWith({}), true).controlsDigest);
  });
});

describe('verdictKey', () => {
  it('changes with everything that decides an admission, and only with the runtimes the task uses', async () => {
    const dir = await tempDir('bakeoff-verdict-');
    const repo = path.join(dir, 'prepared', 'repo');
    await mkdir(repo, { recursive: true });
    await writeFile(path.join(dir, 'prepared', 'prepared.json'), '{"setupSec":0}');
    const runtime = { bakeoff: '0.1.0', node: 'v20', quickjs: 'q', bwrap: 'b', platform: 'linux-x64', python: 'Python 3.11', cargo: 'cargo 1.80' };
    const task = { admissionHash: 'h1', manifest: { language: 'js', test: { command: 'node --test', format: 'node-test' } } } as never;
    const base = { runtime, code: 'c1', sandbox: 'bwrap', preparedRepo: repo };
    const key = (s: { controlsDigest: string }, t: never, o: typeof base): string => canonicalJson(verdictKey(s, t, o));
    const first = key({ controlsDigest: 'd1' }, task, base);
    expect(key({ controlsDigest: 'd1' }, task, base)).toBe(first);
    const changed = [
      key({ controlsDigest: 'd2' }, task, base),
      key({ controlsDigest: 'd1' }, { ...(task as object), admissionHash: 'h2' } as never, base),
      key({ controlsDigest: 'd1' }, task, { ...base, code: 'c2' }),
      key({ controlsDigest: 'd1' }, task, { ...base, sandbox: 'none' }),
      key({ controlsDigest: 'd1' }, task, { ...base, runtime: { ...runtime, node: 'v22' } }),
      key({ controlsDigest: 'd1' }, task, { ...base, runtime: { ...runtime, bwrap: 'b2' } }),
      // an adversarial admission is never kept for a plain one, nor one with fewer exploits
      key({ controlsDigest: 'd1' }, task, { ...base, exploits: ['runner-script-wrap'] } as typeof base),
      key({ controlsDigest: 'd1' }, task, { ...base, exploits: ['runner-script-wrap', 'symlink-report'] } as typeof base),
      // nor one without hackers (validate --hacker) for one with, nor one hacker for another
      key({ controlsDigest: 'd1' }, task, { ...base, exploits: ['runner-script-wrap'], hackers: ['hacker:claude-code:m digest-1 scripted:x'] } as typeof base),
      key({ controlsDigest: 'd1' }, task, { ...base, exploits: ['runner-script-wrap'], hackers: ['hacker:claude-code:m digest-1 vendor'] } as typeof base),
      // a date check that could move only the time zone (libfaketime breaks the runtime's sleeps) is another check
      key({ controlsDigest: 'd1' }, task, { ...base, clockNotMoved: "Python's time.sleep fails" } as typeof base),
    ];
    for (const k of changed) expect(k).not.toBe(first);
    expect(new Set(changed).size).toBe(changed.length);
    // a JavaScript task does not depend on the Python or cargo versions
    expect(key({ controlsDigest: 'd1' }, task, { ...base, runtime: { ...runtime, python: 'Python 3.12' } })).toBe(first);
    // no hackers is the key admissions were kept under before hackers existed
    expect(key({ controlsDigest: 'd1' }, task, { ...base, exploits: ['runner-script-wrap'], hackers: [] } as typeof base)).toBe(changed[6]);
    const py = { admissionHash: 'h1', manifest: { language: 'python', test: { command: 'pytest', format: 'pytest' } } } as never;
    expect(key({ controlsDigest: 'd1' }, py, { ...base, runtime: { ...runtime, python: 'Python 3.12' } })).not.toBe(key({ controlsDigest: 'd1' }, py, base));
    // a prepared repo made again (prepared.json written anew) is another key
    await writeFile(path.join(dir, 'prepared', 'prepared.json.new'), '{"setupSec":1}');
    const { rename } = await import('node:fs/promises');
    await rename(path.join(dir, 'prepared', 'prepared.json.new'), path.join(dir, 'prepared', 'prepared.json'));
    expect(key({ controlsDigest: 'd1' }, task, base)).not.toBe(first);
  });
});

describe('codeDigest', () => {
  it('is one sha256 per process over the shipped code', async () => {
    const digest = await codeDigest();
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(await codeDigest()).toBe(digest);
  });
});

describe('rememberVerdict', () => {
  const admitted = { admitted: true, orders: [] } as unknown as NotedAdmission;

  it('checks two tasks of one admission hash validated at once once: the second waits for the first', async () => {
    const cache = { probes: openProbeCache(await tempDir('bakeoff-verdict-')), runtime: {}, code: 'c' };
    let checks = 0;
    let finish!: (a: NotedAdmission) => void;
    const admit = () => {
      checks += 1;
      return new Promise<NotedAdmission>((resolve) => (finish = resolve));
    };
    const first = rememberVerdict(cache, { controlsDigest: 'd' }, { admissionHash: 'h' }, { k: 1 }, admit);
    const copy = rememberVerdict(cache, { controlsDigest: 'd' }, { admissionHash: 'h' }, { k: 1 }, admit);
    // another key (another prepared repo, runtime …) is checked on its own
    const other = rememberVerdict(cache, { controlsDigest: 'd' }, { admissionHash: 'h' }, { k: 2 }, async () => ((checks += 1), admitted));
    expect(await other).toBe(admitted);
    finish(admitted);
    expect(await first).toBe(admitted);
    expect(await copy).toBe(admitted);
    expect(checks).toBe(2);
  });

  it('checks the second task itself when the first was rejected (a rejection is never kept)', async () => {
    const cache = { probes: openProbeCache(await tempDir('bakeoff-verdict-')), runtime: {}, code: 'c' };
    const rejected = { admitted: false, reason: 'baseline passes' } as NotedAdmission;
    let checks = 0;
    const first = rememberVerdict(cache, { controlsDigest: 'd' }, { admissionHash: 'h' }, { k: 1 }, async () => ((checks += 1), rejected));
    const copy = rememberVerdict(cache, { controlsDigest: 'd' }, { admissionHash: 'h' }, { k: 1 }, async () => ((checks += 1), admitted));
    expect(await first).toBe(rejected);
    expect(await copy).toBe(admitted);
    expect(checks).toBe(2);
  });
});
