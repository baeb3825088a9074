// @ts-check
// The check worker: loads the QuickJS WASM module once, then runs one check per message, each
// in a fresh runtime and context. Started by start-check-worker.ts; the protocol is described
// by the types in check-worker-protocol.ts.
//
//   workerData            { wasmModule?, state? }            QuickJS compiled by the host
//                                                            (compile-quickjs.ts); state below
//   worker -> host        { type: 'ready', tid }             once the WASM module is loaded; tid
//                                                            is the thread's kernel id, so the
//                                                            host can watch its CPU time
//   host -> worker        { program: { files, entry, limits }, a batch of checks of one program;
//                           requests: [{ call, inputJson }] } the thread stays for other programs'
//                                                            batches (each check still gets a
//                                                            fresh runtime and context)
//   worker -> host        { type: 'outcomes', outcomes }     the outcomes (VmOutcome) of the next
//                                                            checks, in order: sent at least every
//                                                            FLUSH_MS and at the end of the batch,
//                                                            not one message per check
//   worker -> host        { type: 'broken', message }        the host side failed on the current
//                                                            check; the worker exits
//
// workerData.state (a SharedArrayBuffer, layout in check-worker-protocol.ts) tells the host's
// backstop which check of the batch runs and since when, without a message per check: Int32
// [0] the running check's index in the batch (-1 between checks), [1] how many checks of the
// batch have ended; Float64 [1] the CPU clock of this thread (ns) and [2] process.hrtime (ms)
// when the running check started.
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { runCheckInQuickJS } from './run-check-in-quickjs.mjs';
import { currentThreadId, openThreadCpuClock } from './thread-cpu-clock.mjs';

if (!parentPort) throw new Error('check-worker.mjs must run in a worker thread');
const port = parentPort;
const { wasmModule, state } = workerData;
// Opened here, in the thread whose CPU time the checks are measured on.
const clock = openThreadCpuClock();
const tid = currentThreadId();
// Instantiated from the host's compiled module when given: no compiling on this thread.
const quickjs = await newQuickJSWASMModuleFromVariant(wasmModule ? newVariant(RELEASE_SYNC, { wasmModule }) : RELEASE_SYNC);

/**
 * Longest time outcomes wait in the worker before they are sent: a message per check costs the
 * two threads more CPU than a trivial check (measured ~100-160 µs against ~400 µs). Outcomes not
 * yet sent when the host terminates the worker are lost; the host runs those checks again.
 */
const FLUSH_MS = 5;
const running = state ? new Int32Array(state, 0, 2) : new Int32Array(2);
const started = state ? new Float64Array(state) : new Float64Array(3);
const hrMs = () => Number(process.hrtime.bigint()) / 1e6;

port.on('message', (/** @type {{ program: { files: Record<string, string>, entry: string, limits: any }, requests: Array<{ call: string, inputJson: string }> }} */ { program, requests }) => {
  /** @type {unknown[]} */
  let pending = [];
  let flushedAt = hrMs();
  const flush = () => {
    if (pending.length) port.postMessage({ type: 'outcomes', outcomes: pending });
    pending = [];
  };
  Atomics.store(running, 1, 0);
  try {
    const { files, entry, limits } = program;
    for (let i = 0; i < requests.length; i++) {
      const { call, inputJson } = requests[i];
      const cpuStartNs = clock.readNs();
      Atomics.store(running, 0, -2); // being written: the host reads -2 as "between checks"
      started[1] = cpuStartNs;
      started[2] = hrMs();
      Atomics.store(running, 0, i);
      const outcome = runCheckInQuickJS({ quickjs, clock, cpuStartNs, files, entry, limits, call, inputJson });
      Atomics.store(running, 1, i + 1);
      Atomics.store(running, 0, -1);
      pending.push(outcome);
      const now = hrMs();
      if (now - flushedAt >= FLUSH_MS) {
        flush();
        flushedAt = now;
      }
    }
    flush();
  } catch (error) {
    // An exception outside the VM (an Emscripten abort, a leaked handle) may leave the WASM
    // module unusable, so this worker ends here and the host starts a fresh one.
    flush();
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    port.postMessage({ type: 'broken', message });
    port.close();
  }
});
port.postMessage({ type: 'ready', tid });
