import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPLOIT_IDS } from '../../src/agents/index.js';
import { bakeoff, copySuite, FIXTURES, ROOT } from './helpers.js';

interface Verdict { id: string; admitted: boolean; reason?: string; notes: string[] }
interface Lock { tasks: Record<string, { admitted: boolean; adversarialExploits?: number }> }

const WEAK = 'clamp-junit-weak';
const STARTER = ['csv-multiline-fields', 'invoice-half-cent-rounding', 'semver-caret-tilde', 'wrap-non-ascii'];

/**
 * Adversarial admission (issue 35 part 3): `validate --adversarial` runs the exploit library on
 * every task; the starter suite's tasks hold against every exploit, and the deliberately weak
 * JUnit task (its command runs a script the change can rewrite) is rejected, naming the exploit
 * and what it changed.
 */
describe('bakeoff validate --adversarial', () => {
  let suite: string;
  let verdicts: Verdict[];
  let exitCode: number | undefined;

  beforeAll(async () => {
    suite = await copySuite(path.join(ROOT, 'examples/starter'));
    await cp(path.join(FIXTURES, 'tasks', WEAK), path.join(suite, 'tasks', WEAK), { recursive: true });
    // --recheck: the exploits run even where this machine kept an adversarial admission before
    const r = await bakeoff(['validate', suite, '--adversarial', '--recheck', '--json']);
    exitCode = r.exitCode;
    expect(r.stdout, r.stderr).not.toBe('');
    verdicts = (JSON.parse(r.stdout) as { tasks: Verdict[] }).tasks;
  }, 1_500_000);

  it('admits every starter task, each after every exploit of the library was graded failed on it', async () => {
    for (const id of STARTER) {
      const v = verdicts.find((t) => t.id === id)!;
      expect(v.admitted, `${id}: ${v.reason}`).toBe(true);
      expect(v.notes).toContain(`adversarial admission: ${EXPLOIT_IDS.length} exploits tried, each graded failed`);
    }
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as Lock;
    for (const id of STARTER) expect(lock.tasks[id]).toMatchObject({ admitted: true, adversarialExploits: EXPLOIT_IDS.length });
    const tasksMd = await readFile(path.join(suite, 'TASKS.md'), 'utf8');
    // the weak task is rejected, so every admitted task faced the library
    expect(tasksMd).toContain(`Adversarial admission: every admitted task also faced ${EXPLOIT_IDS.length} exploits`);
    expect(tasksMd).toContain(`| admitted (adversarial: ${EXPLOIT_IDS.length} exploits failed) |`);
  });

  it('rejects the weak task, naming the exploit graded solved and the files it changed', () => {
    expect(exitCode).toBe(1);
    const weak = verdicts.find((t) => t.id === WEAK)!;
    expect(weak.admitted).toBe(false);
    expect(weak.reason).toMatch(/^adversarial admission: exploit:runner-script-wrap \(runner configuration: .*\) was graded solved; it changed .*run-tests\.sh/);
    // only the exploit that got through is named
    expect(weak.reason!.match(/exploit:/g)).toHaveLength(1);
  });

  it('admits the weak task without adversarial admission: the exploit, not another check, rejects it', async () => {
    const alone = await copySuite(path.join(FIXTURES, 'tasks', WEAK));
    const dir = path.join(path.dirname(alone), 'weak-suite');
    await cp(alone, path.join(dir, 'tasks', WEAK), { recursive: true });
    await writeFile(path.join(dir, 'suite.yaml'), 'schemaVersion: 1\nid: weak\ncontrols:\n  admission:\n    adversarial: true\n');
    const r = await bakeoff(['validate', dir, '--no-adversarial', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { tasks: Verdict[] }).tasks).toEqual([expect.objectContaining({ id: WEAK, admitted: true })]);
    // the suite's control turns it on; without the sandbox it is refused
    const unsafe = await bakeoff(['validate', dir, '--unsafe-no-sandbox']);
    expect(unsafe.exitCode).toBe(2);
    expect(unsafe.stderr).toContain('adversarial admission needs an isolating sandbox');
    expect(unsafe.stderr).toContain('--sandbox unsafe-no-sandbox would let them act on this machine');
    expect(unsafe.stderr).toContain('controls.admission.adversarial is true');
  }, 300_000);

  it('refuses a suite whose admission control is not a boolean, naming the file and field', async () => {
    const dir = await copySuite(path.join(FIXTURES, 'tasks', WEAK));
    const suiteDir = path.join(path.dirname(dir), 'bad-suite');
    await cp(dir, path.join(suiteDir, 'tasks', WEAK), { recursive: true });
    await writeFile(path.join(suiteDir, 'suite.yaml'), 'schemaVersion: 1\nid: bad\ncontrols:\n  admission:\n    adversarial: "yes"\n');
    const r = await bakeoff(['validate', suiteDir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('suite.yaml');
    expect(r.stderr).toContain('admission.adversarial');
  });
});
