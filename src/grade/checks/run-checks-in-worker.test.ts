import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckWorkerData } from './check-worker-protocol.js';
import { runChecksInWorker } from './run-checks-in-worker.js';

const data = (cpuMs: number): CheckWorkerData => ({
  files: { 'src/index.js': 'export const spin = () => { for (;;) {} };\nexport const ok = (x) => x + 1;\n' },
  entry: 'src/index.js',
  limits: { memoryBytes: 32 << 20, stackBytes: 1 << 20, cpuMs, wallBackstopMs: 20 * cpuMs, maxResultBytes: 1 << 20 },
});

// Stand-in workers, written at test time: they speak the protocol but misbehave.
const dir = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-check-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function fakeWorker(name: string, body: string): URL {
  const file = path.join(dir, name);
  writeFileSync(file, `import { parentPort } from 'node:worker_threads';\n${body}\n`);
  return pathToFileURL(file);
}

describe('runChecksInWorker', () => {
  it('terminates a check at the host CPU backstop when the interrupt handler does not stop it, then runs the next check in a new worker', async () => {
    // A 60 s CPU limit in the VM stands for time the handler cannot see (native code, GC).
    const requests = [{ call: 'ok', inputJson: '1' }, { call: 'spin', inputJson: 'null' }, { call: 'ok', inputJson: '2' }, { call: 'spin', inputJson: 'null' }, { call: 'ok', inputJson: '3' }];
    const outcomes = await runChecksInWorker({ data: data(60_000), requests, backstop: { cpuMs: 300, wallMs: 60_000 } });
    expect(outcomes.map((o) => (o.kind === 'value' ? o.json : o.failure))).toEqual(['2', 'timeout', '3', 'timeout', '4']);
    expect(outcomes[1]).toMatchObject({ message: expect.stringMatching(/^the check used \d+ ms of CPU time, past the host's CPU backstop of 300 ms, .*its worker was terminated$/) });
    expect(outcomes[1]!.cpuMs).toBeGreaterThanOrEqual(300);
    expect(outcomes[1]!.cpuMs).toBeLessThan(400);
  });

  it('fails a check whose worker dies with code-error and runs the next check in a new worker', async () => {
    const workerUrl = fakeWorker(
      'dies.mjs',
      `parentPort.on('message', ({ requests }) => {
  for (const { call } of requests) {
    if (call === 'die') process.exit(7);
    parentPort.postMessage({ type: 'outcomes', outcomes: [{ kind: 'value', json: '"fine"', durationMs: 1 }] });
  }
});
parentPort.postMessage({ type: 'ready' });`,
    );
    const requests = ['ok', 'die', 'ok', 'ok'].map((call) => ({ call, inputJson: 'null' }));
    const outcomes = await runChecksInWorker({ data: data(500), requests, backstop: { cpuMs: 5000, wallMs: 5000 }, workerUrl });
    expect(outcomes).toHaveLength(4);
    expect(outcomes[0]).toMatchObject({ kind: 'value', json: '"fine"' });
    expect(outcomes[1]).toMatchObject({ kind: 'failure', failure: 'code-error', message: "the grader's QuickJS worker died on this check: the check worker exited with code 7" });
    expect(outcomes[2]).toMatchObject({ kind: 'value', json: '"fine"' });
    expect(outcomes[3]).toMatchObject({ kind: 'value', json: '"fine"' });
  });

  it('replaces a worker that reports its host side broken', async () => {
    const workerUrl = fakeWorker(
      'broken.mjs',
      `parentPort.on('message', () => {
  parentPort.postMessage({ type: 'broken', message: 'RuntimeError: Aborted()' });
  parentPort.close();
});
parentPort.postMessage({ type: 'ready' });`,
    );
    const requests = [{ call: 'a', inputJson: 'null' }, { call: 'b', inputJson: 'null' }];
    const outcomes = await runChecksInWorker({ data: data(500), requests, backstop: { cpuMs: 5000, wallMs: 5000 }, workerUrl });
    expect(outcomes[0]).toMatchObject({ failure: 'code-error', message: "the grader's QuickJS runtime failed on this check: RuntimeError: Aborted()" });
    // The second check ran in a fresh worker, which broke too.
    expect(outcomes).toHaveLength(2);
    expect(outcomes[1]).toMatchObject({ failure: 'code-error', message: expect.stringContaining('RuntimeError: Aborted()') });
  });

  it('runs the next call in the same idle thread, with that call\'s program; never in a thread a check ended', async () => {
    // answers each check with its thread and the program's entry; `die` ends the thread
    const workerUrl = fakeWorker(
      'which-thread.mjs',
      `import { threadId } from 'node:worker_threads';
parentPort.on('message', ({ program, requests }) => {
  for (const { call } of requests) {
    if (call === 'die') process.exit(3);
    parentPort.postMessage({ type: 'outcomes', outcomes: [{ kind: 'value', json: JSON.stringify(threadId + ' ' + program.entry), durationMs: 1 }] });
  }
});
parentPort.postMessage({ type: 'ready' });`,
    );
    const program = (entry: string): CheckWorkerData => ({ ...data(500), files: { [entry]: 'export const ok = (x) => x;\n' }, entry });
    const answer = async (entry: string, calls: string[]): Promise<string[]> =>
      (await runChecksInWorker({ data: program(entry), requests: calls.map((call) => ({ call, inputJson: 'null' })), backstop: { cpuMs: 5000, wallMs: 5000 }, workerUrl })).map((o) =>
        o.kind === 'value' ? (JSON.parse(o.json!) as string) : o.failure,
      );
    const [first] = await answer('a.js', ['ok']);
    const [second] = await answer('b.js', ['ok']);
    const thread = first!.split(' ')[0];
    expect(first).toBe(`${thread} a.js`);
    expect(second).toBe(`${thread} b.js`);
    const [, died] = await answer('c.js', ['ok', 'die']);
    expect(died).toBe('code-error');
    const [after] = await answer('d.js', ['ok']);
    expect(after).toMatch(/ d\.js$/);
    expect(after!.split(' ')[0]).not.toBe(thread);
  });

  it('throws when the worker cannot start, since then the instrument is broken', async () => {
    const workerUrl = fakeWorker('crashes.mjs', "throw new Error('cannot load the WASM module');");
    await expect(runChecksInWorker({ data: data(500), requests: [{ call: 'ok', inputJson: '1' }], backstop: { cpuMs: 5000, wallMs: 5000 }, workerUrl })).rejects.toThrow(
      'the check worker failed to start: the check worker threw Error: cannot load the WASM module',
    );
  });
});
