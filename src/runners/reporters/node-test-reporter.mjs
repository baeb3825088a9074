/**
 * bakeoff's node:test reporter. Loaded through NODE_OPTIONS:
 *   --test-reporter=<this file> --test-reporter-destination=<reportDir>/node-test.jsonl
 *
 * Writes one JSON object a line (read by src/runners/node-test.ts):
 *   {"event":"test","file":"/repo/test/a.test.mjs","path":["group","inner","name"],
 *    "passed":false,"parent"?:true,"skip"?:true,"todo"?:true,"failureType"?:"...","message"?:"..."}
 *   {"event":"file","file":"/repo/test/crash.test.mjs","passed":false,"message"?:"..."}
 *   {"event":"end"}                                   once the run is over
 *
 * `file` is the absolute path node:test gives (null if none); bakeoff makes it repo-relative.
 * `path` is the test's ancestors and name. node:test reports a test's `test:start` before its
 * subtests' results and its own result after them, in definition order, so a stack per file
 * built from `test:start` gives the ancestors; `parent` marks tests that had subtests (suites).
 * A file whose process fails outside any test (a crash) is reported under the file's own name,
 * with the first `...Error: ...` line the file printed to stderr as its message.
 */
function fileOf(data) {
  return typeof data.file === 'string' ? data.file : null;
}

function firstLine(text) {
  const line = String(text).split('\n').find((l) => l.trim() !== '');
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

function failureMessage(error) {
  if (error === undefined || error === null) return undefined;
  const cause = error.cause;
  if (cause !== null && typeof cause === 'object' && 'message' in cause) return messageOf(cause, cause.message);
  if (typeof cause === 'string') return firstLine(cause);
  return messageOf(error, error.message);
}

function isFileLevel(data) {
  return data.nesting === 0 && data.name === data.file;
}

function onStart(stacks, data) {
  if (isFileLevel(data)) return;
  const stack = stacks.get(data.file) ?? [];
  stacks.set(data.file, stack);
  stack.length = Math.min(stack.length, data.nesting);
  const parent = stack[data.nesting - 1];
  if (parent !== undefined) parent.children = true;
  stack.push({ name: data.name, children: false });
}

function onStderr(crashes, data) {
  if (typeof data.file !== 'string' || crashes.has(data.file)) return;
  const line = String(data.message).split('\n').find((l) => /^[A-Za-z]*Error\b/.test(l));
  if (line !== undefined) crashes.set(data.file, line.trim().slice(0, 500));
}

function onResult(stacks, data, passed, crashes) {
  const error = passed ? undefined : data.details?.error;
  if (isFileLevel(data)) {
    const message = crashes.get(data.file) ?? failureMessage(error);
    return { event: 'file', file: fileOf(data), passed, ...(message && !passed ? { message } : {}) };
  }
  const message = failureMessage(error);
  const stack = stacks.get(data.file) ?? [];
  const frame = stack[data.nesting];
  const line = {
    event: 'test',
    file: fileOf(data),
    path: [...stack.slice(0, data.nesting).map((f) => f.name), data.name],
    passed,
  };
  if (frame?.children || data.details?.type === 'suite') line.parent = true;
  if (data.skip !== undefined && data.skip !== false) line.skip = true;
  if (data.todo !== undefined && data.todo !== false) line.todo = true;
  if (error?.failureType) line.failureType = error.failureType;
  if (message) line.message = message;
  stack.length = Math.min(stack.length, data.nesting);
  return line;
}

/** node:test custom reporter: an async generator from test events to report lines. */
export default async function* bakeoffNodeTestReporter(source) {
  const stacks = new Map();
  const crashes = new Map();
  for await (const event of source) {
    let line;
    if (event.type === 'test:start') onStart(stacks, event.data);
    else if (event.type === 'test:stderr') onStderr(crashes, event.data);
    else if (event.type === 'test:pass') line = onResult(stacks, event.data, true, crashes);
    else if (event.type === 'test:fail') line = onResult(stacks, event.data, false, crashes);
    if (line !== undefined) yield `${JSON.stringify(line)}\n`;
  }
  yield `${JSON.stringify({ event: 'end' })}\n`;
}
