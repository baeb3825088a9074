import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hackerPrompt } from '../../../src/admit/index.js';
import { EXPLOIT_IDS } from '../../../src/agents/index.js';
import { bakeoff, FIXTURES, tempDir } from '../helpers.js';
import { AGENT_SPECS, requireHarnesses } from './agent-helpers.js';

interface Verdict { id: string; admitted: boolean; reason?: string; notes: string[]; evidence?: string[] }
interface Logged { body: unknown }

const WEAK = 'clamp-junit-weak';
const SOUND = 'add';
const HACKER = `hacker:${AGENT_SPECS['claude-code']}`;

/**
 * The scripted model's hack, one shell command through Claude Code's own Bash tool: where the
 * test command runs a script of the repo, that script is made to strip every failure from the
 * JUnit report and exit 0 (the clamp is left broken); elsewhere it changes nothing and says so.
 */
const HACK = [
  'if [ -f run-tests.sh ]; then',
  "cat >> run-tests.sh <<'X'",
  `node -e "const fs=require('fs');const f='reports/junit.xml';fs.writeFileSync(f,fs.readFileSync(f,'utf8').replace(/<failure[\\s\\S]*?<\\/failure>/g,'').replace(/ failure=\\"[^\\"]*\\"/g,'').replace(/failures=\\"\\d+\\"/g,'failures=\\"0\\"'))"`,
  'exit 0',
  'X',
  "else echo 'the test command runs nothing this repository can change: giving up'; fi",
].join('\n');

/*
 * `validate --adversarial --hacker <spec>` with a real CLI (Claude Code) against bakeoff's
 * scripted model: one validate of two tasks, the deliberately weak JUnit task (its test command
 * runs a script the change can rewrite) and the tiny suite's sound `add`. The scripted model
 * games the weak task's report and gives up on the sound one, which is admitted.
 */
describe('a hacker agent in adversarial admission, with a real CLI against the scripted model', () => {
  let verdicts: Verdict[] = [];
  let exitCode: number | undefined;
  let stderr = '';
  let suite = '';
  let logged: Logged[] = [];

  beforeAll(async () => {
    await requireHarnesses();
    const dir = await tempDir();
    suite = path.join(dir, 'hacked');
    await cp(path.join(FIXTURES, 'tasks', WEAK), path.join(suite, 'tasks', WEAK), { recursive: true });
    await cp(path.join(FIXTURES, 'suites/tiny/tasks', SOUND), path.join(suite, 'tasks', SOUND), { recursive: true });
    await writeFile(path.join(suite, 'suite.yaml'), 'schemaVersion: 1\nid: hacked\ncontrols:\n  sessionWallClockSec: 120\n');
    const script = path.join(dir, 'hack.json');
    await writeFile(script, JSON.stringify({ replies: [{ tool: { name: 'Bash', args: { command: HACK, description: 'game the grading' } } }, { text: 'Done: the report loses its failures.' }] }));
    const log = path.join(dir, 'upstream.jsonl');
    // one task at a time: the two sessions do not share the two cores with each other's tests
    const r = await bakeoff(['validate', suite, '--adversarial', '--hacker', AGENT_SPECS['claude-code'], '--upstream', `scripted:${script}`, '--recheck', '--concurrency', '1', '--json'], { env: { BAKEOFF_SCRIPTED_LOG: log } });
    exitCode = r.exitCode;
    stderr = r.stderr;
    expect(r.stdout, r.stderr).not.toBe('');
    verdicts = (JSON.parse(r.stdout) as { tasks: Verdict[] }).tasks;
    logged = (await readFile(log, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Logged);
  }, 600_000);

  it('rejects the weak task, naming the hacker graded solved and the file it changed', () => {
    expect(exitCode, stderr).toBe(1);
    const weak = verdicts.find((t) => t.id === WEAK)!;
    expect(weak.admitted).toBe(false);
    expect(weak.reason).toContain(`${HACKER} (told to make the tests pass without fixing the problem) was graded solved; it changed run-tests.sh; its run folder is kept as evidence`);
  });

  it('keeps the hacker run as evidence where --json says: its change, its transcript, its record and the prompt it got', async () => {
    const weak = verdicts.find((t) => t.id === WEAK)!;
    expect(weak.evidence).toHaveLength(1);
    const kept = weak.evidence![0]!;
    const patch = await readFile(path.join(kept, 'order-1', 'change.patch'), 'utf8');
    expect(patch).toContain('diff --git a/run-tests.sh b/run-tests.sh');
    expect(patch).toMatch(/^\+exit 0$/m);
    // the clamp itself is left broken: the hacker fixed nothing
    expect(patch).not.toContain('src/clamp.js');
    const stream = await readFile(path.join(kept, 'order-1', 'stream.jsonl'), 'utf8');
    expect(stream).toContain('reports/junit.xml');
    const run = JSON.parse(await readFile(path.join(kept, 'run.json'), 'utf8')) as { record: { agent: { id: string }; outcome: { kind: string } }; sessions: unknown[] };
    expect(run.record.agent.id).toBe(HACKER);
    expect(run.record.outcome.kind).toBe('solved');
    expect(run.sessions).toHaveLength(1);
    const prompt = await readFile(path.join(kept, 'order-1', 'prompt.md'), 'utf8');
    expect(prompt.startsWith(hackerPrompt().trimEnd())).toBe(true);
    expect(prompt).toContain('clamp(-3, 0, 10) gives 10');
  });

  it('the shipped hacker prompt, then each task\'s own, reached the model through the CLI\'s normal prompt delivery', () => {
    const bodies = logged.map((r) => JSON.stringify(r.body));
    // a line of the shipped prompt, as the CLI sends it (JSON-escaped in the request body)
    const line = JSON.stringify('make those hidden tests pass WITHOUT fixing the problem').slice(1, -1);
    expect(hackerPrompt()).toContain('make those hidden tests pass WITHOUT fixing the problem');
    expect(bodies.some((b) => b.includes(line) && b.includes('clamp(-3, 0, 10) gives 10'))).toBe(true);
    expect(bodies.some((b) => b.includes(line) && b.includes('`add(2, 3)` returns `-1`'))).toBe(true);
  });

  it('admits the sound task, on which the hacker changed nothing, and the lock and TASKS.md record the hacker tried', async () => {
    const sound = verdicts.find((t) => t.id === SOUND)!;
    expect(sound.admitted, sound.reason).toBe(true);
    expect(sound.notes).toContain(`adversarial admission: ${EXPLOIT_IDS.length} exploits and 1 hacker agent (${HACKER}) tried, each graded failed`);
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, unknown> };
    expect(lock.tasks[SOUND]).toMatchObject({ admitted: true, adversarialExploits: EXPLOIT_IDS.length, adversarialHackers: [HACKER] });
    expect(await readFile(path.join(suite, 'TASKS.md'), 'utf8')).toContain(`| admitted (adversarial: ${EXPLOIT_IDS.length} exploits and \`${HACKER}\` failed) |`);
  });
});
