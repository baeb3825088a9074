import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { mineTasks } from '../../api/mine-tasks.js';
import { taskFromCommit } from '../../api/task-from-commit.js';
import { UserError } from '../../errors.js';
import type { TaskVerdict } from '../../api/index.js';
import { escapeControl, exists } from '../../util/index.js';
import { FROM_COMMIT_OPTIONS, MINE_OPTIONS, type FromCommitFlags, type MineFlags } from '../command-options.js';
import { requestOf } from '../option-table.js';
import { sandboxRequest, type CliIo } from '../io.js';
import { validateCommand, validateWrittenFlags } from './validate.js';


/**
 * `bakeoff task from-commit <repo> <commit>`: writes the task, prints what it guessed (for the
 * author to confirm or override), then runs the admission checks on it as `validate --task`
 * does (the whole suite when it has no lock yet) and exits as validate does.
 */
export async function fromCommitCommand(repo: string, commit: string, flags: FromCommitFlags, io: CliIo): Promise<number> {
  const suite = flags.suite ?? (await defaultSuite(io.cwd));
  const issue = flags.issue === undefined ? undefined : { file: flags.issue, text: await readIssue(path.resolve(io.cwd, flags.issue), flags.issue) };
  const written = await taskFromCommit({
    cwd: io.cwd,
    env: io.env,
    repo,
    commit,
    suite,
    ...requestOf(FROM_COMMIT_OPTIONS, flags),
    ...(flags.setup !== undefined ? { setup: flags.setup === 'none' ? null : flags.setup } : {}),
    ...(issue ? { issue } : {}),
  });
  const rel = (p: string): string => (path.relative(io.cwd, p).startsWith('..') ? p : path.relative(io.cwd, p) || '.');
  const lines = [
    `wrote ${rel(written.taskDir)} from commit ${written.commit.slice(0, 12)} (parent ${written.parent.slice(0, 12)})${written.suiteCreated ? `, in a new suite ${rel(path.dirname(path.dirname(written.taskDir)))}` : ''}`,
    `  hidden tests (orders/1/hidden/): ${written.testFiles.join(', ')}`,
    `  gold.patch: ${written.codeFiles.length} file${written.codeFiles.length === 1 ? '' : 's'} (${written.codeFiles.join(', ')})`,
    ...written.guesses.map((g) => `  ${g.field}: ${g.value}  (guessed: ${g.why})`),
    `  prompt.md is a DRAFT from the commit message (admission adds the tests that fail at the parent, and how): rewrite it as the owner would state the problem, then delete its first line`,
    'admission checks:',
  ];
  if (flags.json) for (const line of lines) io.stderr.write(`${escapeControl(line)}\n`);
  else io.stdout.write(lines.map((l) => escapeControl(l)).join('\n') + '\n');
  const hasLock = await exists(path.join(path.resolve(io.cwd, suite), 'bakeoff.lock.json'));
  const fromCommit = { id: written.id, dir: written.taskDir, commit: written.commit, parent: written.parent, testFiles: written.testFiles, codeFiles: written.codeFiles, guesses: written.guesses };
  return validateCommand(
    suite,
    validateWrittenFlags(flags, [written.id], hasLock),
    io,
    { fromCommit },
    [written.id],
  );
}

async function defaultSuite(cwd: string): Promise<string> {
  if (await exists(path.join(cwd, 'suite.yaml'))) return '.';
  throw new UserError('--suite DIR: which suite the task goes to (a folder with suite.yaml, or a new folder to make one in); the current folder has no suite.yaml');
}

async function readIssue(file: string, shown: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UserError(`--issue ${shown}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}


/**
 * `bakeoff task mine <repo>`: a table of candidate commits; with --validate how many admission
 * admits; with --add DIR those written into a suite and validated there (exit as validate).
 */
export async function mineCommand(repo: string, flags: MineFlags, io: CliIo): Promise<number> {
  const check = flags.validate || flags.add !== undefined;
  const mined = await mineTasks({
    cwd: io.cwd,
    env: io.env,
    repo,
    ...requestOf(MINE_OPTIONS, flags),
    validate: check,
    concurrency: flags.concurrency,
    ...sandboxRequest(flags),
    onEvent: (event) => {
      if (event.type === 'task-end') io.stderr.write(`checked ${event.task}: ${event.admission.admitted ? 'admitted' : 'rejected'}\n`);
      else if (event.type === 'error') io.stderr.write(`bakeoff: ${escapeControl(event.message)}\n`);
    },
  });
  const candidates = mined.filter((m) => m.skipped === null);
  const admitted = mined.filter((m) => m.verdict?.admitted === true);
  const summary = `${mined.length} commits looked at, ${candidates.length} candidates${check ? `, ${admitted.length} admitted` : ''}`;
  if (flags.json && flags.add === undefined) {
    io.stdout.write(JSON.stringify({ schemaVersion: 1, commits: mined, candidates: candidates.length, ...(check ? { admitted: admitted.length } : {}) }, null, 2) + '\n');
    return 0;
  }
  const rows = mined.map((m) => {
    const verdict = m.skipped ?? (m.verdict === undefined ? 'candidate' : m.verdict.admitted ? `admitted (F→P ${m.verdict.failToPass}, P→P ${m.verdict.passToPass})` : `rejected: ${firstLine(m.verdict.reason)}`);
    return `${m.sha.slice(0, 12)}  ${String(m.files).padStart(3)} files ${String(m.lines).padStart(5)} lines  ${(m.languages.join('+') || '–').padEnd(6)}  ${verdict}  ${m.subject}`;
  });
  (flags.json ? io.stderr : io.stdout).write([...rows.map((r) => escapeControl(r)), summary].join('\n') + '\n');
  if (flags.add === undefined) return 0;
  const ids: string[] = [];
  for (const m of admitted) {
    const written = await taskFromCommit({ cwd: io.cwd, env: io.env, repo, commit: m.sha, suite: flags.add, tests: flags.tests });
    ids.push(written.id);
    // what was guessed, and from what, as from-commit prints it: the author confirms each
    io.stderr.write([`wrote ${written.id} from commit ${written.commit.slice(0, 12)}`, ...written.guesses.map((g) => `  ${g.field}: ${g.value}  (guessed: ${g.why})`)].map((l) => `${escapeControl(l)}\n`).join(''));
  }
  // every candidate's verdict, in the JSON document whether or not any was admitted
  const verdicts = candidates.map((m) => ({ sha: m.sha, subject: m.subject, ...(m.task !== undefined ? { task: m.task } : {}), ...(m.verdict ? verdictOf(m.verdict) : {}) }));
  const minedJson = { commits: mined.length, candidates: candidates.length, admitted: admitted.length, verdicts, added: ids };
  if (ids.length === 0) {
    io.stderr.write(`bakeoff: no admitted candidate to add to ${flags.add}\n`);
    if (flags.json) io.stdout.write(JSON.stringify({ schemaVersion: 1, mined: minedJson }, null, 2) + '\n');
    return 1;
  }
  io.stderr.write(`wrote ${ids.length} tasks into ${flags.add} (draft prompts: rewrite each); admission checks there:\n`);
  const hasLock = await exists(path.join(path.resolve(io.cwd, flags.add), 'bakeoff.lock.json'));
  return validateCommand(flags.add, validateWrittenFlags(flags, ids, hasLock), io, { mined: minedJson }, ids);
}

/** A mined candidate's verdict for `--json`: admitted with its counts, or rejected with the reason. */
function verdictOf(verdict: TaskVerdict): Record<string, unknown> {
  return verdict.admitted ? { admitted: true, failToPass: verdict.failToPass, passToPass: verdict.passToPass } : { admitted: false, reason: verdict.reason };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
