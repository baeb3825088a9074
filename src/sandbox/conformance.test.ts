/**
 * Every sandbox backend of the registry (`registry.ts`) against one shared suite: the same
 * requests, the same expectations of `Sandbox`'s contract. A backend that does not isolate
 * (`isolates: false`: the process sandbox hides no files) skips the cases that need isolation,
 * saying so. `BAKEOFF_CONFORMANCE_SANDBOXES=a,b` runs those backends only (an unknown name is
 * an error). Needs root, bubblewrap and cgroups.
 */
import { execSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Server } from 'node:net';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controls } from '../suite/schema.js';
import { PYTHON_BYTECODE_INSIDE } from '../util/index.js';
import { DEFAULT_SANDBOX_UID } from './isolation.js';
import { SANDBOX_NAMES, sandboxNamed } from './registry.js';
import type { ExecRequest, Sandbox, SandboxBackend } from './types.js';
import { chownTree, disposeScratch, freshScratchRoot } from './workspace.js';

/** What a case needs of a backend beyond `Sandbox`'s contract. */
type Need = 'isolation';

/** Every registered backend, or those `BAKEOFF_CONFORMANCE_SANDBOXES` names. */
const ONLY = process.env.BAKEOFF_CONFORMANCE_SANDBOXES?.split(',').map((n) => n.trim()).filter((n) => n !== '');
const MEMBERS: readonly (SandboxBackend & { readonly name: string })[] = (ONLY ?? SANDBOX_NAMES).map((name) => sandboxNamed(name));

/** Why a backend does not run a case that needs `need`, or undefined when it runs it. */
function excused(backend: SandboxBackend, need: Need | undefined): string | undefined {
  if (need === 'isolation' && !backend.isolates) return 'not isolating: it hides no host files and binds nothing read-only';
  return undefined;
}
const CONTROLS = Controls.parse({ memoryMb: 256, pids: 64 });

interface Context {
  readonly sandbox: Sandbox;
  /** The registry's entry the sandbox was made from. */
  readonly backend: SandboxBackend & { readonly name: string };
  /** A fresh folder owned by the sandbox's owner, bound writable in `exec` unless `binds` says otherwise. */
  dir(name: string): Promise<string>;
  exec(command: string, extra?: Partial<ExecRequest>): Promise<Awaited<ReturnType<Sandbox['exec']>> & { output: string }>;
  listen(server: Server, where: string | number): Promise<void>;
}

interface Case {
  readonly name: string;
  readonly needs?: Need;
  run(ctx: Context): Promise<void>;
}

const CASES: readonly Case[] = [
  {
    name: 'records its registry name, and says it is isolated exactly when the registry says it isolates',
    async run({ sandbox, backend }) {
      expect([sandbox.name, sandbox.isolated]).toEqual([backend.name, backend.isolates]);
    },
  },
  {
    name: 'reports an exit status, and a signal, without throwing',
    async run({ exec }) {
      const exited = await exec('echo before; exit 7');
      expect([exited.exitCode, exited.signal, exited.timedOut, exited.output]).toEqual([7, null, false, 'before\n']);
      const killed = await exec('kill -KILL $$');
      // the shell dies by the signal: reported as the signal, or as the 128+n status of a wrapper
      expect(killed.signal === 'SIGKILL' || killed.exitCode === 137, JSON.stringify(killed)).toBe(true);
      expect(killed.timedOut).toBe(false);
    },
  },
  {
    name: 'kills the whole process tree at the wall clock, setsid children included',
    async run({ exec }) {
      const marker = `bakeoff-orphan-${process.pid}-${Date.now()}`;
      const started = Date.now();
      const r = await exec(`setsid sh -c 'exec -a ${marker} sleep 300' & sleep 300`, { timeoutMs: 1000 });
      expect(r.timedOut).toBe(true);
      expect(r.exitCode).not.toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(execSync('ps -eo args', { encoding: 'utf8' })).not.toContain(marker);
    },
  },
  {
    name: 'says what the machine gave the command: the CPU a busy loop got, and a sleep never held back while it sleeps (decision 011)',
    async run({ exec }) {
      const busy = await exec('end=$(($(date +%s) + 2)); while [ "$(date +%s)" -lt "$end" ]; do :; done');
      expect(busy.cpu, 'the backend measured nothing (root and cgroups are needed)').toBeTruthy();
      const b = busy.cpu!;
      // the loop was either on a CPU or waiting for one for most of its wall time, however busy the host
      expect(b.cpuMs! + b.heldMs, JSON.stringify(b)).toBeGreaterThan(0.5 * b.wallMs);
      expect(b.cpuMs!, JSON.stringify(b)).toBeGreaterThan(20);
      // sleeping is never waiting: only its start (sandbox set-up, exec) can be held back, never its 2 s of sleep
      const asleep = await exec('sleep 2');
      expect(asleep.cpu!.heldMs, JSON.stringify(asleep.cpu)).toBeLessThan(asleep.cpu!.wallMs - 1900);
      // the last look before a timeout's kill: a loop killed at its clock has its figures up to the kill
      const killed = await exec('while :; do :; done', { timeoutMs: 1500 });
      expect(killed.timedOut).toBe(true);
      expect(killed.cpu!.cpuMs! + killed.cpu!.heldMs, JSON.stringify(killed.cpu)).toBeGreaterThan(600);
    },
  },
  {
    name: 'kills a command that prints nothing for idleTimeoutMs, and says so',
    async run({ exec }) {
      const r = await exec('echo started; sleep 300', { idleTimeoutMs: 500 });
      expect([r.idleTimedOut, r.timedOut, r.output]).toEqual([true, false, 'started\n']);
    },
  },
  {
    name: 'keeps the output within maxOutputBytes, with the right tail and count',
    async run({ exec }) {
      const max = 64 * 1024;
      const chunks: Buffer[] = [];
      const r = await exec('seq 1 100000; echo THE-END', { maxOutputBytes: max, onOutput: (c) => chunks.push(c) });
      expect(r.exitCode).toBe(0);
      const printed = Buffer.concat(chunks);
      expect(r.outputBytes).toBe(printed.length);
      expect(r.outputBytes).toBeGreaterThan(8 * max);
      expect(r.outputTruncated).toBe(true);
      expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(max + 200);
      expect(r.output.startsWith('1\n2\n3\n')).toBe(true);
      expect(r.output.endsWith('99999\n100000\nTHE-END\n')).toBe(true);
      expect(r.output).toContain(`bytes printed in all]`);
      expect(r.outputTail.length).toBeLessThanOrEqual(64 * 1024);
      expect(printed.toString().endsWith(r.outputTail)).toBe(true);
    },
  },
  {
    name: 'runs in the cwd given, with the env given and nothing inherited',
    async run({ exec, dir }) {
      const cwd = await dir('cwd');
      process.env.BAKEOFF_CONFORMANCE_LEAK = 'leaked';
      try {
        const r = await exec('pwd; echo "$GREETING"; echo "leak=$BAKEOFF_CONFORMANCE_LEAK"', { cwd, env: { PATH: '/usr/bin:/bin', GREETING: 'hi there' } });
        expect(r.output).toBe(`${cwd}\nhi there\nleak=\n`);
      } finally {
        delete process.env.BAKEOFF_CONFORMANCE_LEAK;
      }
    },
  },
  {
    name: 'gives HOME as the sandbox says, and files made in a writable bind to its owner',
    async run({ exec, dir, sandbox }) {
      const work = await dir('owned');
      const r = await exec('echo "$HOME"; touch "$HOME/probe" && echo home-writable; touch made-inside', { cwd: work, env: { PATH: '/usr/bin:/bin', HOME: work } });
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toBe(`${sandbox.home ?? work}\nhome-writable\n`);
      const expectedUid = sandbox.owner?.uid ?? process.getuid!();
      expect((await stat(path.join(work, 'made-inside'))).uid).toBe(expectedUid);
    },
  },
  {
    name: 'says it is isolated exactly when host files outside the binds are hidden',
    async run({ exec, dir, sandbox }) {
      const hidden = await dir('not-bound');
      await writeFile(path.join(hidden, 'secret'), 'hidden answer\n');
      const cwd = await dir('bound');
      const r = await exec(`cat ${hidden}/secret`, { cwd, binds: [{ path: cwd, writable: true }] });
      if (sandbox.isolated) expect(r.exitCode).not.toBe(0);
      else expect(r.output).toBe('hidden answer\n');
    },
  },
  {
    name: 'binds are readable, and writable only as declared',
    needs: 'isolation',
    async run({ exec, dir }) {
      const rw = await dir('rw');
      const ro = await dir('ro');
      await writeFile(path.join(ro, 'given'), 'given\n');
      const r = await exec(`cat ${ro}/given; echo x > ${rw}/written && echo rw-ok; echo x > ${ro}/written && echo ro-WRITTEN; true`, {
        cwd: rw,
        binds: [{ path: rw, writable: true }, { path: ro, writable: false }],
      });
      expect(r.output).toMatch(/^given\n/);
      expect(r.output).toContain('rw-ok');
      expect(r.output).not.toContain('ro-WRITTEN');
      expect(await readFile(path.join(rw, 'written'), 'utf8')).toBe('x\n');
      await expect(stat(path.join(ro, 'written'))).rejects.toThrow(/ENOENT/);
    },
  },
  {
    name: "Python's bytecode prefix (PYTHONPYCACHEPREFIX of the Python runners) holds none for the command's own modules and cannot be written, moved or replaced",
    needs: 'isolation',
    async run({ exec, backend }) {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1', PYTHONPYCACHEPREFIX: PYTHON_BYTECODE_INSIDE };
      const probe = [
        'import importlib.util, json, os',
        "mine = os.path.join(os.getcwd(), 'mine.py')",
        "open(mine, 'w').write('x = 1\\n')",
        "print('PROBE', json.dumps({'stdlib': os.path.exists(importlib.util.cache_from_source(json.__file__)), 'mine': os.path.exists(importlib.util.cache_from_source(mine))}))",
      ].join('\n');
      const p = PYTHON_BYTECODE_INSIDE;
      const r = await exec(`python3 -c "$PROBE"; touch ${p}/planted && echo WROTE; mv ${p} /tmp/moved && echo MOVED; mkdir -p ${p}-x && echo MADE; true`, { env: { ...env, PROBE: probe } });
      const seen = JSON.parse(/^PROBE (.*)$/m.exec(r.output)?.[1] ?? 'null') as { stdlib: boolean; mine: boolean } | null;
      expect(seen, r.output).not.toBeNull();
      expect(seen!.mine, r.output).toBe(false);
      // the bubblewrap backend mounts the toolchain's compiled modules there: Python loads them instead of compiling its library on every grading
      if (backend.name === 'bwrap') expect(seen!.stdlib, r.output).toBe(true);
      expect(r.output).not.toMatch(/WROTE|MOVED|MADE/);
    },
  },
  {
    name: "network 'none' refuses a TCP connect to the host; 'host' reaches it",
    async run({ exec, listen }) {
      const tcp = createTcpServer((c) => c.end('host service\n'));
      await listen(tcp, 0);
      const port = (tcp.address() as { port: number }).port;
      const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('data', d => process.stdout.write('got ' + d)).on('error', e => console.log('error', e.code))"`;
      expect((await exec(probe, { network: 'none' })).output).toBe('error ECONNREFUSED\n');
      expect((await exec(probe, { network: 'host' })).output).toBe('got host service\n');
    },
  },
  {
    name: 'relays modelBridge to the host socket, offline otherwise',
    async run({ exec, listen, sandbox, dir }) {
      const socket = path.join(await dir('bridge'), 'model.sock');
      const http = createHttpServer((req, res) => res.end(`model says hi to ${req.url}`));
      await listen(http as unknown as Server, socket);
      if (sandbox.owner) await chownTree([socket], sandbox.owner);
      const r = await exec(`node -e "fetch('http://127.0.0.1:18080/v1/messages').then(r => r.text()).then(t => console.log('bridge:', t), e => console.log('bridge failed', e.cause?.code))"`, {
        modelBridge: { socket, port: 18080 },
      });
      expect(r.output).toBe('bridge: model says hi to /v1/messages\n');
    },
  },
];

for (const member of MEMBERS) {
  describe(`sandbox conformance: ${member.name}`, () => {
    let sandbox: Sandbox;
    let scratch: string;
    let made = 0;
    const servers: Server[] = [];
    beforeAll(async () => {
      for (const tool of member.requires) expect(execSync(`command -v ${tool} || echo missing`, { encoding: 'utf8', shell: '/bin/sh' }).trim(), `${member.name} requires ${tool}`).not.toBe('missing');
      sandbox = await member.create({ controls: CONTROLS, uid: DEFAULT_SANDBOX_UID });
      scratch = await freshScratchRoot(`conformance ${member.name} ${process.pid}`);
    });
    afterAll(async () => {
      for (const s of servers) s.close();
      await disposeScratch(scratch);
    });
    const ctx: Context = {
      get sandbox() {
        return sandbox;
      },
      backend: member,
      async dir(name) {
        const dir = path.join(scratch, `${++made}-${name}`);
        await mkdir(dir);
        if (sandbox.owner) await chownTree([dir], sandbox.owner);
        return dir;
      },
      async exec(command, extra = {}) {
        const cwd = extra.cwd ?? (await ctx.dir('work'));
        const outputPath = path.join(scratch, `${++made}-out.log`);
        const request: ExecRequest = { command, cwd, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20_000, network: 'none', outputPath, binds: [{ path: cwd, writable: true }], ...extra };
        const result = await sandbox.exec(request);
        return { ...result, output: await readFile(outputPath, 'utf8') };
      },
      async listen(server, where) {
        servers.push(server);
        await new Promise<void>((resolve) => (typeof where === 'number' ? server.listen(where, '127.0.0.1', resolve) : server.listen(where, resolve)));
      },
    };
    for (const c of CASES) {
      const reason = excused(member, c.needs);
      if (reason !== undefined) it.skip(`${c.name} (skipped: ${reason})`, () => {});
      else it(c.name, () => c.run(ctx), 30_000);
    }
  });
}
