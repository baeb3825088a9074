import { closeSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { InfraError } from '../errors.js';
import type { ExecRequest, ExecResult, Sandbox } from './types.js';

const TAIL_BYTES = 64 * 1024;

/**
 * The light backend: each command gets its own pid namespace (so killing it kills every
 * descendant, including setsid/nohup children) and, when asked, its own empty network
 * namespace with only loopback. It does NOT hide files: full filesystem isolation is the
 * bubblewrap backend's job.
 */
export function createProcessSandbox(options: { bwrapPath?: string } = {}): Sandbox {
  const bwrap = options.bwrapPath ?? 'bwrap';
  return {
    name: 'bwrap-light',
    exec: (request) => execInNamespaces(bwrap, request),
  };
}

async function execInNamespaces(bwrap: string, request: ExecRequest): Promise<ExecResult> {
  const argv: string[] = [
    '--dev-bind', '/', '/',
    '--proc', '/proc',
    '--unshare-pid',
    ...(request.network === 'none' ? ['--unshare-net'] : []),
    '--die-with-parent',
    '--new-session',
    '--chdir', request.cwd,
    '--',
    '/bin/sh', '-c', request.command,
  ];
  const env: Record<string, string> = { ...request.env };
  const fd = openSync(request.outputPath, 'a');
  const started = performance.now();
  let timedOut = false;
  try {
    const child = spawn(bwrap, argv, { env, stdio: ['ignore', fd, fd], detached: true });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, request.timeoutMs);
    const { exitCode, signal } = await new Promise<{ exitCode: number | null; signal: string | null }>(
      (resolve, reject) => {
        child.once('error', (error) => reject(new InfraError(`could not start ${bwrap}: ${error.message}`, { cause: error })));
        child.once('close', (code, sig) => resolve({ exitCode: code, signal: sig }));
      },
    ).finally(() => clearTimeout(timer));
    return {
      exitCode,
      signal,
      timedOut,
      durationMs: performance.now() - started,
      outputTail: await readTail(request.outputPath),
    };
  } finally {
    closeSync(fd);
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function readTail(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
