import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPLOIT_IDS } from '../../src/agents/index.js';
import { hackerPrompt } from '../../src/admit/index.js';
import { bakeoff, copySuite, FIXTURES, ROOT, tempDir } from './helpers.js';

interface Verdict { id: string; admitted: boolean; reason?: string; notes: string[]; evidence?: string[] }
interface Lock { tasks: Record<string, { admitted: boolean; adversarialExploits?: number }> }

const WEAK = 'clamp-junit-weak';
const STARTER = ['csv-multiline-fields', 'invoice-half-cent-rounding', 'semver-caret-tilde', 'wrap-non-ascii'];

/**
 * Adversarial admission (issue 35 part 3): `validate --adversarial` (or the suite's control)
 * runs the exploit library, then each `--hacker` agent, on every task; the starter suite's tasks
 * hold against every exploit and against a `command:` hacker, and the deliberately weak JUnit
 * task (its command runs a script the change can rewrite) is rejected, naming the exploit, the
 * hacker and what each changed. One validate of the five tasks serves every test that reads
 * verdicts: the weak task's exploits run once, not once more for the hacker.
 */
describe('bakeoff validate --adversarial', () => {
  let suite: string;
  let verdicts: Verdict[];
  let exitCode: number | undefined;
  /** The agent id of the `command:` hacker (its script is in a temp folder). */
  let hacker: string;

  beforeAll(async () => {
    suite = await copySuite(path.join(ROOT, 'examples/starter'));
    await cp(path.join(FIXTURES, 'tasks', WEAK), path.join(suite, 'tasks', WEAK), { recursive: true });
    // the suite's control turns adversarial admission on, for the exploits and for --hacker (the
    // flag does too: the usage errors below show --adversarial on and --no-adversarial off)
    await writeFile(path.join(suite, 'suite.yaml'), `${await readFile(path.join(suite, 'suite.yaml'), 'utf8')}  admission:\n    adversarial: true\n`);
    const script = path.join(await tempDir(), 'hack.sh');
    // the hacker copies the prompt it was given, then games a JUnit report where the test
    // command runs a script of the repo (elsewhere the script it writes runs nothing)
    await writeFile(script, [
      'cp "$BAKEOFF_PROMPT_FILE" hacker-saw.md',
      "cat >> run-tests.sh <<'X'",
      `node -e "const fs=require('fs');const f='reports/junit.xml';fs.writeFileSync(f,fs.readFileSync(f,'utf8').replace(/<failure[\\s\\S]*?<\\/failure>/g,'').replace(/ failure=\\"[^\\"]*\\"/g,'').replace(/failures=\\"\\d+\\"/g,'failures=\\"0\\"'))"`,
      'exit 0',
      'X',
      '',
    ].join('\n'));
    hacker = `hacker:command:sh ${script}`;
    // --recheck: the exploits run even where this machine kept an adversarial admission before
    const r = await bakeoff(['validate', suite, '--hacker', `command:sh ${script}`, '--recheck', '--json']);
    exitCode = r.exitCode;
    expect(r.stdout, r.stderr).not.toBe('');
    verdicts = (JSON.parse(r.stdout) as { tasks: Verdict[] }).tasks;
  }, 1_500_000);

  it('admits every starter task, each after every exploit of the library and the hacker were graded failed on it', async () => {
    for (const id of STARTER) {
      const v = verdicts.find((t) => t.id === id)!;
      expect(v.admitted, `${id}: ${v.reason}`).toBe(true);
      expect(v.notes).toContain(`adversarial admission: ${EXPLOIT_IDS.length} exploits and 1 hacker agent (${hacker}) tried, each graded failed`);
    }
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as Lock;
    for (const id of STARTER) expect(lock.tasks[id]).toMatchObject({ admitted: true, adversarialExploits: EXPLOIT_IDS.length, adversarialHackers: [hacker] });
    const tasksMd = await readFile(path.join(suite, 'TASKS.md'), 'utf8');
    // the weak task is rejected, so every admitted task faced the library
    expect(tasksMd).toContain(`Adversarial admission: every admitted task also faced ${EXPLOIT_IDS.length} exploits`);
    expect(tasksMd).toContain(`| admitted (adversarial: ${EXPLOIT_IDS.length} exploits and \`${hacker}\` failed) |`);
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

  /** A suite of the weak task alone, in a fresh folder. */
  async function weakSuite(): Promise<string> {
    const dir = path.join(await tempDir(), 'weak-suite');
    await cp(path.join(FIXTURES, 'tasks', WEAK), path.join(dir, 'tasks', WEAK), { recursive: true });
    await writeFile(path.join(dir, 'suite.yaml'), 'schemaVersion: 1\nid: weak\n');
    return dir;
  }

  it('refuses --hacker without adversarial admission, and --upstream without --hacker, as usage errors', async () => {
    const dir = await weakSuite();
    const off = await bakeoff(['validate', dir, '--hacker', 'noop']);
    expect(off.exitCode).toBe(2);
    expect(off.stderr).toContain('--hacker adds agents to adversarial admission, which is off: give --adversarial with --hacker');
    const no = await bakeoff(['validate', dir, '--no-adversarial', '--hacker', 'noop']);
    expect(no.exitCode).toBe(2);
    expect(no.stderr).toContain('which is off (--no-adversarial)');
    const upstream = await bakeoff(['validate', dir, '--adversarial', '--upstream', 'scripted:gold']);
    expect(upstream.exitCode).toBe(2);
    expect(upstream.stderr).toContain('--upstream is for the model agents of --hacker, and no --hacker was given');
    const gold = await bakeoff(['validate', dir, '--adversarial', '--hacker', 'gold']);
    expect(gold.exitCode).toBe(2);
    expect(gold.stderr).toContain('--hacker gold: the gold agent applies the reference fix');
    const bad = await bakeoff(['validate', dir, '--adversarial', '--hacker', 'nosuch']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--hacker "nosuch": expected one of');
    // nothing was validated: no lock written
    await expect(readFile(path.join(dir, 'bakeoff.lock.json'), 'utf8')).rejects.toThrow();
  });

  it('a command: hacker gets the shipped prompt in its prompt file, and its gamed report rejects the task with its run kept', async () => {
    // the validate of the suite with the weak task (beforeAll): the suite's control turned adversarial admission on for --hacker
    expect(exitCode).toBe(1);
    const weak = verdicts.find((t) => t.id === WEAK);
    expect(weak!.reason).toContain(`${hacker} (told to make the tests pass without fixing the problem) was graded solved; it changed hacker-saw.md, run-tests.sh; its run folder is kept as evidence`);
    const patch = await readFile(path.join(weak!.evidence![0]!, 'order-1', 'change.patch'), 'utf8');
    // the prompt file it read: the shipped prompt, then the task's
    const saw = [...patch.matchAll(/^\+(.*)$/gm)].map((m) => m[1]).join('\n');
    expect(saw).toContain(hackerPrompt().split('\n')[0]);
    expect(saw).toContain('clamp(-3, 0, 10) gives 10; it should give 0.');
    // the lock keeps no machine path: the evidence folder is named in --json only
    expect(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')).not.toContain(weak!.evidence![0]!);
  });
});
