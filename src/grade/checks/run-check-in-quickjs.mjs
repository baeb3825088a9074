// @ts-check
// Runs one generated check in a fresh QuickJS runtime and context. Plain JavaScript (not
// TypeScript) because it runs inside the check worker, which Node starts from this folder
// both under vitest and from the compiled dist (see resolveCheckWorker in start-check-worker.ts).
import path from 'node:path';
import { startBudget } from './check-budget.mjs';

/** Module name of the glue that imports the entry and exposes the call. */
const GLUE = '<bakeoff-glue>';
/** Module the glue imports first: it runs before any of the program's modules is evaluated. */
const START = '<bakeoff-start>';
/** A normalized name starting with this character carries a refusal message to the loader. */
const REFUSED = '\u0001';

// Evaluated before any module of the program: it marks, on an object only the host and this
// module can reach (the global that carried it is deleted first), that loading (parsing,
// resolving, linking) is over, so later exceptions are the program's own; and it installs a
// console that does nothing (agents leave console.log calls in; nothing leaves the VM).
// QuickJS parses every module of every check afresh (no bytecode cache), at about 0.15 µs a
// character here, so this and the glue are written short: each character costs on every check.
const MARK = '__bakeoffStart';
const START_SOURCE = `const m=globalThis.${MARK};delete globalThis.${MARK};m.on=1;const n=()=>{};globalThis.console=Object.freeze({log:n,info:n,warn:n,error:n,debug:n,trace:n,dir:n,table:n})`;

/**
 * The glue: its export \`call\` JSON-parses the input, calls the entry's export and
 * JSON-stringifies the result, all inside the VM so that the memory and time limits cover that
 * work. It returns the JSON string (or undefined) for a plain value, or a promise of it when
 * the export returned a thenable (an object or function with a \`then\` method). Nothing is
 * added to the program's global scope. Short on purpose (see START_SOURCE).
 * @param {string} entry
 */
function glueSource(entry) {
  const quoted = JSON.stringify(entry);
  return `import'${START}';import*as e from${quoted};export const call=(n,i)=>{const f=e[n];if(typeof f!='function')throw TypeError(${JSON.stringify(`${entry} has no exported function "`)}+n+'"');const o=f(JSON.parse(i));return Object(o)===o&&typeof o.then=='function'?Promise.resolve(o).then(JSON.stringify):JSON.stringify(o)}`;
}

/**
 * Resolves an import the way Node resolves relative ESM specifiers, against the in-memory
 * files only. Refusals are returned as names starting with REFUSED, because an error returned
 * by a quickjs-emscripten normalizer is lost (the loader is then called with an empty name).
 * @param {Record<string, string>} files
 * @param {string} entry
 * @param {string} base
 * @param {string} requested
 * @returns {string}
 */
export function resolveImport(files, entry, base, requested) {
  if (base === GLUE && (requested === START || requested === entry)) return requested;
  // Module names are C strings inside QuickJS: a NUL would silently cut the name short.
  if (requested.includes('\0')) return `${REFUSED}import in ${base} contains a NUL character`;
  if (!requested.startsWith('./') && !requested.startsWith('../')) {
    return `${REFUSED}import "${requested}" in ${base} refused: only relative imports of the program's own files are allowed (no packages, no Node built-ins, no absolute paths)`;
  }
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(base), requested));
  if (resolved === '..' || resolved.startsWith('../')) {
    return `${REFUSED}import "${requested}" in ${base} refused: it points outside the repository`;
  }
  if (!Object.hasOwn(files, resolved)) {
    return `${REFUSED}module not found: "${requested}" imported from ${base} (resolved to ${resolved}; only the program's .js/.mjs files can be imported)`;
  }
  return resolved;
}

/**
 * @typedef {import('quickjs-emscripten').QuickJSWASMModule} QuickJSWASMModule
 * @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext
 * @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle
 * @typedef {import('./thread-cpu-clock.mjs').CpuClock} CpuClock
 * @typedef {{ memoryBytes: number, stackBytes: number, cpuMs: number, wallBackstopMs: number, maxResultBytes: number }} VmLimits
 * @typedef {import('./check-budget.mjs').CheckBudget} CheckBudget
 * @typedef {{ ctx: QuickJSContext, limits: VmLimits, budget: CheckBudget, mark: QuickJSHandle }} Session
 * @typedef {{ kind: 'value', json?: string, durationMs: number, cpuMs: number }
 *   | { kind: 'failure', failure: string, message: string, durationMs: number, cpuMs: number }} VmOutcome
 */

/** Thrown inside a check to end it with a classified failure. */
class CheckStop extends Error {
  /** @param {string} failure @param {string} message */
  constructor(failure, message) {
    super(message);
    this.failure = failure;
  }
}

/**
 * Runs one check: `entry[call](JSON.parse(inputJson))` in a fresh runtime and context, with
 * the memory limit, the stack limit and a budget of `cpuMs` of this thread's CPU time counted
 * from before the runtime is created (so compiling the program counts), polled by the
 * interrupt handler; a wall-clock backstop of `wallBackstopMs` stops a check that the machine
 * starves of CPU. Throws only when the host side broke (the caller then discards the module).
 * @param {{ quickjs: QuickJSWASMModule, clock: CpuClock, cpuStartNs?: number, files: Record<string, string>, entry: string,
 *   limits: VmLimits, call: string, inputJson: string }} options - `cpuStartNs`: the clock read just before, when the caller has it
 * @returns {VmOutcome}
 */
export function runCheckInQuickJS({ quickjs, clock, cpuStartNs, files, entry, limits, call, inputJson }) {
  const budget = startBudget(clock, limits, cpuStartNs);
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(() => budget.poll());
  runtime.setModuleLoader(
    (name) => (name === START ? START_SOURCE : name.startsWith(REFUSED) ? { error: new Error(name.slice(1)) } : (files[name] ?? { error: new Error(`module not found: ${name}`) })),
    (base, requested) => resolveImport(files, entry, base, requested),
  );
  const ctx = runtime.newContext();
  /** @type {{ json?: string } | CheckStop} */
  let result;
  try {
    const mark = ctx.newObject();
    try {
      ctx.setProp(ctx.global, MARK, mark);
      result = callEntry({ ctx, limits, budget, mark }, entry, call, inputJson);
    } finally {
      mark.dispose();
    }
  } catch (error) {
    if (!(error instanceof CheckStop)) throw error;
    result = error;
  } finally {
    ctx.dispose();
    runtime.dispose();
  }
  const spent = { durationMs: budget.wallMs(), cpuMs: budget.cpuMs() };
  if (result instanceof CheckStop) return { kind: 'failure', failure: result.failure, message: result.message, ...spent };
  return { kind: 'value', ...result, ...spent };
}

/**
 * Loads the program through the glue, calls the export and returns the result's JSON.
 * @param {Session} session @param {string} entry @param {string} call @param {string} inputJson
 * @returns {{ json?: string }}
 */
function callEntry(session, entry, call, inputJson) {
  const { ctx } = session;
  // A module with top-level await evaluates to a promise of its exports.
  const loaded = unwrap(session, ctx.evalCode(glueSource(entry), GLUE, { type: 'module' }));
  const glue = withHandle(settle(session, loaded, 'the module evaluation'), (exports) => ctx.getProp(exports, 'call'));
  const returned = withHandle(glue, (fn) =>
    withHandle(ctx.newString(call), (name) =>
      withHandle(ctx.newString(inputJson), (input) => unwrap(session, ctx.callFunction(fn, ctx.undefined, name, input))),
    ),
  );
  return withHandle(settle(session, returned, `the promise returned by ${call}()`), (value) => {
    const type = ctx.typeof(value);
    if (type === 'undefined') return {};
    if (type !== 'string') throw new Error(`the glue returned a ${type}, not a JSON string`);
    const json = ctx.getString(value);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > session.limits.maxResultBytes) {
      throw new CheckStop('result-too-large', `the result is ${bytes} bytes of JSON, over the limit of ${session.limits.maxResultBytes} bytes`);
    }
    return { json };
  });
}

/**
 * Returns the handle itself when it is not a promise; otherwise runs pending jobs (still under
 * the budget) and returns the fulfilled value, or throws the classified failure.
 * Takes ownership of `handle`.
 * @param {Session} session @param {QuickJSHandle} handle @param {string} what
 * @returns {QuickJSHandle}
 */
function settle(session, handle, what) {
  const { ctx } = session;
  const initial = ctx.getPromiseState(handle);
  if (initial.type === 'fulfilled' && initial.notAPromise) return handle;
  return withHandle(handle, (promise) => {
    const jobs = ctx.runtime.executePendingJobs(-1);
    if (jobs.error) unwrap(session, jobs);
    const state = ctx.getPromiseState(promise);
    if (state.type === 'fulfilled') return state.value;
    if (state.type === 'rejected') return unwrap(session, { error: state.error });
    throw late(session.budget, 'code-error', `${what} never settled: it was still pending when no work was left to run`);
  });
}

/**
 * Returns the value of a VM call result, or throws the classified failure.
 * @template T
 * @param {Session} session @param {{ value: T, error?: undefined } | { error: QuickJSHandle }} result
 * @returns {T}
 */
function unwrap(session, result) {
  if (!result.error) return result.value;
  throw withHandle(result.error, (error) => classify(session, error));
}

/**
 * Calls `fn` with the handle and disposes the handle afterwards, also when `fn` throws (a
 * handle left alive makes the runtime's dispose abort the whole WASM module).
 * @template T
 * @param {QuickJSHandle} handle @param {(handle: QuickJSHandle) => T} fn
 * @returns {T}
 */
function withHandle(handle, fn) {
  try {
    return fn(handle);
  } finally {
    if (handle.alive) handle.dispose();
  }
}

/**
 * Turns an exception from the VM into a failure. Engine limits are recognised by QuickJS's
 * own messages; any other exception before the first module ran is a load error.
 * @param {Session} session @param {QuickJSHandle} error
 * @returns {CheckStop}
 */
function classify({ ctx, limits, budget, mark }, error) {
  const dumped = ctx.dump(error);
  const isObject = dumped !== null && typeof dumped === 'object';
  const name = isObject && typeof dumped.name === 'string' ? dumped.name : '';
  const text = isObject && typeof dumped.message === 'string' ? dumped.message : isObject ? JSON.stringify(dumped) : String(dumped);
  const described = clip(`${name ? `${name}: ` : 'uncaught value: '}${text || '(empty)'}${isObject ? location(dumped) : ''}`);
  if (name === 'InternalError' && text === 'interrupted' && budget.stopped) return stopped(budget, `(${described})`);
  if (name === 'InternalError' && (text === 'out of memory' || text === 'string too long')) {
    return new CheckStop('memory', `the check ran out of its ${limits.memoryBytes} bytes of memory (${described})`);
  }
  if (name === 'InternalError' && text === 'stack overflow') {
    return new CheckStop('stack', `the check overflowed its ${limits.stackBytes} bytes of stack (${described})`);
  }
  if (!evaluating(ctx, mark)) return new CheckStop('load-error', `the program failed to load: ${described}`);
  return late(budget, 'code-error', described);
}

/**
 * Whether the start module ran (see START_SOURCE), i.e. the program's modules began to evaluate.
 * @param {QuickJSContext} ctx @param {QuickJSHandle} mark
 */
function evaluating(ctx, mark) {
  return withHandle(ctx.getProp(mark, 'on'), (on) => ctx.typeof(on) === 'number');
}

/**
 * Once the budget has stopped the check, every pending job is interrupted as soon as it polls,
 * which can leave a promise pending or rejected with an error QuickJS raised in its own promise
 * machinery (seen: `TypeError: not a function`). Such an ending is the limit, not the
 * program's error.
 * @param {CheckBudget} budget @param {string} failure @param {string} message
 * @returns {CheckStop}
 */
function late(budget, failure, message) {
  if (!budget.stopped) return new CheckStop(failure, message);
  return stopped(budget, `(it then ended with: ${message})`);
}

/**
 * The failure of a check the budget stopped: the CPU limit (`timeout`) or the wall-clock
 * backstop (`wall-backstop`), each with the CPU and wall time it had used.
 * @param {CheckBudget} budget @param {string} detail
 * @returns {CheckStop}
 */
function stopped(budget, detail) {
  const { cpuMs, wallBackstopMs } = budget.limits;
  const used = `${Math.round(budget.cpuMs())} ms of CPU time in ${Math.round(budget.wallMs())} ms of wall time`;
  if (budget.stopped === 'cpu') return new CheckStop('timeout', `the check used more than its ${cpuMs} ms of CPU time: ${used} ${detail}`);
  return new CheckStop(
    'wall-backstop',
    `the check ran past the wall-clock backstop of ${wallBackstopMs} ms, not its CPU limit: ${used}, under its ${cpuMs} ms — the machine gave it too little CPU ${detail}`,
  );
}

/** Longest description of a thrown value kept in a message (agents can throw megabytes). */
const MAX_DESCRIPTION_CHARS = 500;

/** @param {string} text */
function clip(text) {
  return text.length <= MAX_DESCRIPTION_CHARS ? text : `${text.slice(0, MAX_DESCRIPTION_CHARS)}… (${text.length} chars)`;
}

/** @param {Record<string, unknown>} dumped */
function location(dumped) {
  if (typeof dumped.fileName === 'string') return ` at ${dumped.fileName}:${dumped.lineNumber ?? '?'}`;
  const first = typeof dumped.stack === 'string' ? dumped.stack.trim().split('\n')[0] : undefined;
  return first ? ` ${first}` : '';
}
