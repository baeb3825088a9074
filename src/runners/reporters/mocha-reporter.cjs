'use strict';
/**
 * bakeoff's mocha reporter. Given on the command line:
 *   --reporter <this file> --reporter-option output=<reportDir>/mocha.jsonl
 * or, for a mocha before 6 (no --reporter-option, no --no-bail), `--reporter <this file>` with
 * BAKEOFF_MOCHA_REPORT=<the file> and BAKEOFF_MOCHA_NO_BAIL=1 in the environment.
 *
 * Writes one JSON object a line (read by src/runners/mocha.ts):
 *   {"event":"test","file":"/repo/test/a.test.js","path":["group","inner","name"],"status":"pass"|"fail"|"skip","message"?:"..."}
 *   {"event":"hook","file":…,"path":["group","\"before all\" hook for \"name\""],"message":"..."}   a hook that failed
 *   {"event":"end","tests":N,"passes":N,"failures":N,"pending":N}                                   once the run is over
 *
 * `path` is mocha's titlePath(): the suites' titles and the test's, without the root suite.
 * Mocha's own `json` reporter (with `--reporter-option output=`) gives only `fullTitle`, the
 * titles joined by spaces, from which the suites cannot be told apart, hence this reporter. The
 * spec reporter of the mocha that loaded this file still writes to stdout, for the log.
 */
const fs = require('node:fs');
const path = require('node:path');

function firstLine(text) {
  const line = String(text ?? '').split('\n').find((l) => l.trim() !== '');
  return line === undefined ? undefined : line.trim().slice(0, 500);
}

/**
 * The message of a node:assert failure that wrote its own message (`generatedMessage`: "Expected
 * values to be strictly equal:", then the values or a diff on the next lines) as one line, its
 * first lines joined, so that the values are kept (a draft prompt names them); any other
 * message's first line, after the error's class when it is a built-in one (`TypeError: …`).
 */
function messageOf(error, text) {
  if (error === null || typeof error !== 'object') return firstLine(text);
  if (error.generatedMessage !== true) {
    const line = firstLine(text);
    const name = typeof error.name === 'string' && /^(Type|Reference|Range|Syntax|URI|Eval)Error$/.test(error.name) ? error.name : null;
    return line !== undefined && name !== null && !line.startsWith(name) ? `${name}: ${line}`.slice(0, 500) : line;
  }
  const lines = String(text ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '' && l !== '...');
  return lines.length === 0 ? undefined : lines.slice(0, 8).join(' ').slice(0, 500);
}

/** mocha's titlePath(), and where it lacks one (before 5) the same walk: the titles up to the root suite, which has none. */
function titlePath(runnable) {
  if (typeof runnable.titlePath === 'function') return runnable.titlePath();
  const titles = [String(runnable.title)];
  for (let suite = runnable.parent; suite && !suite.root; suite = suite.parent) titles.unshift(String(suite.title));
  return titles;
}

/** Bail off in every suite (mocha before 6 has no --no-bail; a suite copies its parent's bail when it is made, before any reporter). */
function noBail(suite) {
  if (!suite || typeof suite.bail !== 'function') return;
  suite.bail(false);
  for (const child of suite.suites || []) noBail(child);
}

function fileOf(runnable) {
  return typeof runnable.file === 'string' ? runnable.file : null;
}

/** The spec reporter of the running mocha (the one whose bin started this process), or null. */
function specReporter() {
  const candidates = [process.argv[1], process.cwd()].filter(Boolean);
  for (const from of candidates) {
    try {
      const Spec = require(require.resolve('mocha', { paths: [path.dirname(from), from] })).reporters.Spec;
      if (typeof Spec === 'function') return Spec;
    } catch {
      // try the next place
    }
  }
  return null;
}

function BakeoffMochaReporter(runner, options) {
  const reporterOptions = (options && (options.reporterOption || options.reporterOptions)) || {};
  // mocha before 6 takes no --reporter-option (1.x no reporter options at all): bakeoff then names the file in the environment
  const output = reporterOptions.output || process.env.BAKEOFF_MOCHA_REPORT;
  if (typeof output !== 'string' || output === '') throw new Error('bakeoff mocha reporter: --reporter-option output=FILE is missing');
  if (process.env.BAKEOFF_MOCHA_NO_BAIL === '1') noBail(runner.suite);
  const fd = fs.openSync(output, 'w');
  const write = (record) => fs.writeSync(fd, JSON.stringify(record) + '\n');
  const Spec = specReporter();
  if (Spec !== null) new Spec(runner, options);
  let tests = 0;
  let passes = 0;
  let failures = 0;
  let pending = 0;
  // A pass is written at the test's end, not at once: mocha's --check-leaks fails a test after its pass, in the runner's own `test end` listener, which runs
  // before this one; such a test is one failed test, not a pass and a failure.
  const passed = new Set();
  runner.on('pass', (test) => {
    passed.add(test);
  });
  runner.on('test end', (test) => {
    if (!passed.delete(test)) return;
    tests += 1;
    passes += 1;
    write({ event: 'test', file: fileOf(test), path: titlePath(test), status: 'pass' });
  });
  runner.on('fail', (runnable, error) => {
    passed.delete(runnable);
    failures += 1;
    const message = messageOf(error, error && error.message !== undefined ? error.message : error);
    const base = { file: fileOf(runnable), path: titlePath(runnable), ...(message === undefined ? {} : { message }) };
    if (runnable.type === 'hook') write({ event: 'hook', ...base });
    else {
      tests += 1;
      write({ event: 'test', ...base, status: 'fail' });
    }
  });
  runner.on('pending', (test) => {
    tests += 1;
    pending += 1;
    write({ event: 'test', file: fileOf(test), path: titlePath(test), status: 'skip' });
  });
  runner.once('end', () => {
    for (const test of passed) {
      tests += 1;
      passes += 1;
      write({ event: 'test', file: fileOf(test), path: titlePath(test), status: 'pass' });
    }
    write({ event: 'end', tests, passes, failures, pending });
    fs.closeSync(fd);
  });
}

module.exports = BakeoffMochaReporter;
