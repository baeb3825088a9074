// @ts-check
// The check worker: loads the QuickJS WASM module once, then runs one check per message, each
// in a fresh runtime and context. Started by start-check-worker.ts; the protocol is described
// by the types in check-worker-protocol.ts.
//
//   workerData            { wasmModule? }                    QuickJS compiled by the host
//                                                            (compile-quickjs.ts)
//   worker -> host        { type: 'ready', tid }             once the WASM module is loaded; tid
//                                                            is the thread's kernel id, so the
//                                                            host can watch its CPU time
//   host -> worker        { program: { files, entry, limits }, a batch of checks of one program;
//                           requests: [{ call, inputJson }] } the thread stays for other programs'
//                                                            batches (each check still gets a
//                                                            fresh runtime and context)
//   worker -> host        { type: 'outcome', outcome }       one per check, in order (VmOutcome)
//   worker -> host        { type: 'broken', message }        the host side failed on the current
//                                                            check; the worker exits
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { runCheckInQuickJS } from './run-check-in-quickjs.mjs';
import { currentThreadId, openThreadCpuClock } from './thread-cpu-clock.mjs';

if (!parentPort) throw new Error('check-worker.mjs must run in a worker thread');
const port = parentPort;
const { wasmModule } = workerData;
// Opened here, in the thread whose CPU time the checks are measured on.
const clock = openThreadCpuClock();
const tid = currentThreadId();
// Instantiated from the host's compiled module when given: no compiling on this thread.
const quickjs = await newQuickJSWASMModuleFromVariant(wasmModule ? newVariant(RELEASE_SYNC, { wasmModule }) : RELEASE_SYNC);

port.on('message', (/** @type {{ program: { files: Record<string, string>, entry: string, limits: any }, requests: Array<{ call: string, inputJson: string }> }} */ { program, requests }) => {
  try {
    const { files, entry, limits } = program;
    for (const { call, inputJson } of requests) {
      port.postMessage({ type: 'outcome', outcome: runCheckInQuickJS({ quickjs, clock, files, entry, limits, call, inputJson }) });
    }
  } catch (error) {
    // An exception outside the VM (an Emscripten abort, a leaked handle) may leave the WASM
    // module unusable, so this worker ends here and the host starts a fresh one.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    port.postMessage({ type: 'broken', message });
    port.close();
  }
});
port.postMessage({ type: 'ready', tid });
