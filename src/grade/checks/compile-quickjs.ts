import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import v8 from 'node:v8';

/**
 * V8 flags in force while the engine is compiled: every function compiled up front, straight
 * to optimized code. By default V8 compiles each WASM function on its first call (on the
 * calling thread) with its baseline compiler and optimizes hot ones later in the background;
 * measured, that made the first check of every worker cost 240–460 ms of CPU time instead of
 * 50–100 ms for the same work, more when the background compiler is starved on a busy
 * machine. Compiled this way, every check runs the same machine code from its first
 * instruction, and no check pays for compiling the engine.
 */
const EAGER_OPTIMIZED = ['--no-liftoff', '--no-wasm-lazy-compilation'];
/** V8's defaults for those flags, restored once the module is compiled. */
const DEFAULTS = ['--liftoff', '--wasm-lazy-compilation'];

let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * The QuickJS engine (quickjs-emscripten's release-sync variant) as a compiled WebAssembly
 * module, compiled once per bakeoff process (about 1 s of CPU on background threads) and
 * shared with every check worker, which instantiate it without compiling anything.
 */
export function compiledQuickJS(): Promise<WebAssembly.Module> {
  compiled ??= compile().catch((error: unknown) => {
    compiled = undefined;
    throw error;
  });
  return compiled;
}

async function compile(): Promise<WebAssembly.Module> {
  const bytes = await readFile(quickJSWasmPath());
  // V8 flags are process-wide; only WebAssembly compiled during this await sees these.
  for (const flag of EAGER_OPTIMIZED) v8.setFlagsFromString(flag);
  try {
    return await WebAssembly.compile(bytes);
  } finally {
    for (const flag of DEFAULTS) v8.setFlagsFromString(flag);
  }
}

/** The .wasm file of the variant check-worker.mjs uses, resolved the way quickjs-emscripten resolves it. */
export function quickJSWasmPath(): string {
  const fromQuickJS = createRequire(createRequire(import.meta.url).resolve('quickjs-emscripten'));
  return fromQuickJS.resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
}
