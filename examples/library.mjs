#!/usr/bin/env node
// bakeoff through the library alone: validate a suite, bake two agents on it, print the
// leaderboard, re-check every stored run, and publish the site. No CLI code runs.
//
//   node examples/library.mjs <suite> <results folder> <site folder>
//
// (After `npm run build`; outside this repository, `npm install bakeoff` and the same import.)
import { bake, publish, renderTable, report, validate, verify } from 'bakeoff';

const [suite, results, site] = process.argv.slice(2);
if (!suite || !results || !site) {
  process.stderr.write('usage: node examples/library.mjs <suite> <results folder> <site folder>\n');
  process.exit(2);
}
// Notes and errors that did not stop a call (a sandbox warning, a void run) arrive as events.
const onEvent = (event) => {
  if (event.type === 'note' || event.type === 'error') process.stderr.write(`${event.type}: ${event.message}\n`);
};

const validated = await validate({ suite, onEvent });
process.stdout.write(`validated ${validated.suite.id}: ${validated.tasks.length - validated.rejected} of ${validated.tasks.length} tasks admitted\n`);
process.stdout.write(`suite hash ${validated.suite.hash}\n`);
if (!validated.ok) process.exit(1);

const baked = await bake({
  suite,
  agents: ['gold', 'noop'],
  out: results,
  onEvent: (event) => {
    if (event.type === 'run-end') process.stderr.write(`run ${event.record.task} ${event.record.agent.id}: ${event.record.outcome.kind}\n`);
    else onEvent(event);
  },
});
process.stdout.write(`baked: ${baked.summary.ran} run(s) this time, ${baked.summary.alreadyDone} already done\n`);

const board = await report({ results, onEvent });
process.stdout.write(renderTable(board.view, { color: false }) + '\n');
for (const agent of board.view.agents) process.stdout.write(`${agent.agent.id}: solved ${agent.solved} of ${agent.runs}\n`);

const checked = await verify({ results, onEvent });
process.stdout.write(`verified ${checked.runs.length} runs: ${checked.mismatches} mismatches\n`);

const published = await publish({ results, out: site, onEvent });
process.stdout.write(published.published ? `published ${published.pages} pages to ${published.out}\n` : `not published: ${published.why}\n`);
