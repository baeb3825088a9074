import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';
import { longest, onScreen, shownLines } from './on-screen.js';
import { validatedTiny } from './tiny-suite.js';

const ESC = '\u001b';

describe('output on a terminal fits its width; off a terminal it is the full output', () => {
  let out: string;
  let suite: string;
  let ran: { exitCode: number | undefined; text: string };
  beforeAll(async () => {
    suite = await validatedTiny();
    out = path.join(await tempDir(), 'results');
    ran = await onScreen(80, ['run', suite, '--agent', 'gold', '--agent', 'noop', '--out', out]);
    expect(ran.exitCode, ran.text).toBe(0);
  });

  it('bakeoff run: progress and leaderboard stay within 80 columns, and a line names what was left out', () => {
    expect(longest(ran.text), ran.text).toBeLessThanOrEqual(80);
    expect(ran.text).toMatch(/^1 +gold /m);
    expect(ran.text).toMatch(/^2 +noop /m);
    expect(ran.text).toMatch(/left out to fit 80 columns: [a-z@/ ,\n]+; --wide\s+shows\s+every\s+column/);
    // the live line names what runs (task × agent (replay), its name cut first at 80 columns), the order's stage and its time
    const live = shownLines(ran.text).filter((line) => line.startsWith('runs '));
    expect(live.some((line) => /^runs \d\/8 · .* · (py-)?add × [^·]*: session 1 \d:\d\d/.test(line)), ran.text).toBe(true);
    expect(live.some((line) => / · (py-)?add × [^·]*: grading 1 \d:\d\d/.test(line)), ran.text).toBe(true);
    // the counts, elapsed and ETA lead every live line and are never cut for a run's name
    expect(live.every((line) => /^runs \d\/8 · solved \d · void \d · \d+:\d\d elapsed · ETA (–|\d+:\d\d)/.test(line)), ran.text).toBe(true);
    // each finished run leaves its line in the scrollback, as off a terminal
    const finished = shownLines(ran.text).filter((line) => /^run \d\/8 (add|py-add) × (gold|noop) \(replay [01]\): (solved|failed \(tests-failed\)) in \d:\d\d$/.test(line));
    expect(new Set(finished.map((line) => line.split(':')[0])).size, ran.text).toBe(8);
    // how the numbers are counted is behind --explain
    expect(ran.text).toContain('How each number is counted: add --explain.');
    expect(ran.text).not.toContain('Share = runs solved');
  });

  it('bakeoff validate: a live line with the task count and the stage of each task, within 100 columns', async () => {
    // one task at a time: two tasks' stages side by side do not fit beside the counts, and are counted (+2 more);
    // --recheck: the suite was admitted before, so validate would keep its verdicts and run no stage
    const { exitCode, text } = await onScreen(100, ['validate', suite, '--concurrency', '1', '--recheck']);
    expect(exitCode, text).toBe(0);
    expect(longest(text), text).toBeLessThanOrEqual(100);
    const live = shownLines(text).filter((line) => line.startsWith('tasks '));
    for (const stage of ['setup', 'baseline', 'gold-1', 'gold-shifted-clock']) {
      expect(live.some((line) => new RegExp(`^tasks [012]/2 · .*(add|py-add): ${stage} \\d:\\d\\d`).test(line)), `${stage}\n${text}`).toBe(true);
    }
  });

  it('bakeoff validate: a setup that takes a while shows its command, its time and its last line of output', async () => {
    const slow = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    const task = path.join(slow, 'tasks/add/task.yaml');
    // a new setup every time: a prepared repo is cached per machine and task version
    const setup = `: ${randomBytes(4).toString('hex')}; echo fetching deps; sleep 3; echo linked 12 packages; sleep 3`;
    await writeFile(task, (await readFile(task, 'utf8')).replace('setup: null', `setup: ${JSON.stringify(setup)}`));
    const { exitCode, text } = await onScreen(200, ['validate', slow]);
    expect(exitCode, text).toBe(0);
    const live = shownLines(text).filter((line) => line.startsWith('tasks '));
    const shown = (last: string) => live.some((line) => line.includes(`add: setup: ${setup} (0:0`) && line.includes(`) — ${last} `));
    expect(shown('fetching deps'), text).toBe(true);
    expect(shown('linked 12 packages'), text).toBe(true);
  });

  it.each([80, 120])('bakeoff report: the leaderboard of a real results folder within %i columns', async (columns) => {
    const { exitCode, text } = await onScreen(columns, ['report', out, '--explain', '--matrix']);
    expect(exitCode, text).toBe(0);
    expect(longest(text), text).toBeLessThanOrEqual(columns);
    const lines = shownLines(text);
    const header = lines.find((line) => line.startsWith('#  agent'));
    expect(header, text).toContain('share [95% CI]');
    expect(lines.find((line) => line.startsWith('1  gold'))).toContain('100.0% [34.2–100.0]');
    expect(lines.find((line) => line.startsWith('2  noop'))).toContain('0.0% [0.0–65.8]');
    expect(text).toMatch(/hash [0-9a-f]{12} /);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    // gold and noop have no harness, version, model, tokens or cost: those columns go first, and on a screen always
    expect(text).toMatch(/not shown \(nothing to show for these agents\): harness, version, model@effort,\s+tokens in,\s+tokens out,\s+cost\/fix/);
    if (columns === 80) expect(text).toMatch(/left out to fit 80 columns: [a-z@/ ,\n]+; --wide\s+shows\s+every\s+column/);
    else expect(text).not.toContain('left out to fit');
    expect(text).toContain('Share = runs solved / valid runs');
    expect(text).toMatch(/^Solved runs by task \(solved\/runs\):\ntask +gold +noop\nadd +2\/2 +0\/2\npy-add +2\/2 +0\/2$/m);
  });

  it.each([80, 120])('bakeoff agents within %i columns, every harness still listed', async (columns) => {
    const { exitCode, text } = await onScreen(columns, ['agents']);
    expect(exitCode, text).toBe(0);
    expect(longest(text), text).toBeLessThanOrEqual(columns);
    for (const harness of ['claude-code', 'codex', 'pi', 'opencode', 'gemini-cli']) expect(text).toMatch(new RegExp(`^${harness} `, 'm'));
    expect(text).toMatch(/left out to fit \d+ columns: .*wire format/);
  });

  it('bolds the header on a terminal; NO_COLOR=1 and --no-color leave no escape sequence', async () => {
    expect((await onScreen(120, ['report', out])).text).toContain(`${ESC}[1m#  agent`);
    for (const run of [onScreen(120, ['report', out], { NO_COLOR: '1' }), onScreen(120, ['report', out, '--no-color']), onScreen(120, ['report', out, '--wide', '--no-color'])]) {
      const { exitCode, text } = await run;
      expect(exitCode, text).toBe(0);
      expect(text).toContain('#  agent');
      expect(text).not.toContain(ESC);
    }
  });

  it('piped, report and agents print every column and full hashes, whatever $COLUMNS says; --wide on a terminal prints the same', async () => {
    const piped = await bakeoff(['report', out], { env: { COLUMNS: '80', NO_COLOR: '' } });
    expect(piped.exitCode, piped.stderr).toBe(0);
    const header = piped.stdout.split('\n').find((line) => line.startsWith('#  agent'))!;
    expect(header.split(/ {2,}/)).toEqual(['#', 'agent', 'harness', 'version', 'model@effort', 'runs', 'solved', 'points', 'share [95% CI]', 'void as failed', 'void', 'median time', 'median lines', 'tokens in', 'tokens out', 'cost/fix']);
    expect(piped.stdout).toMatch(/^suite tiny {2}hash [0-9a-f]{64} {2}controls [0-9a-f]{64} {2}closed web {2}standard 2 runs\/task$/m);
    expect(piped.stdout).not.toContain('left out to fit');
    expect(piped.stdout).not.toContain(ESC);
    expect(longest(piped.stdout)).toBeGreaterThan(160);
    expect((await onScreen(80, ['report', out, '--wide', '--no-color'])).text).toBe(piped.stdout);

    const agents = await bakeoff(['agents'], { env: { COLUMNS: '80', NO_COLOR: '' } });
    expect(agents.exitCode, agents.stderr).toBe(0);
    expect(agents.stdout).toMatch(/^harness +pinned +installed +wire format +effort levels \(for the example model\)$/m);
    expect(agents.stdout).toContain('@mariozechner/pi-coding-agent@');
    expect((await onScreen(80, ['agents', '--wide'])).text).toBe(agents.stdout);
  });
});
