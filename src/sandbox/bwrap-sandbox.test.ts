import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Server } from 'node:net';
import { mkdir, mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controls } from '../suite/schema.js';
import { createIsolation } from './isolation.js';
import type { ExecRequest, Sandbox } from './types.js';
import { chownTree, disposeScratch, scratchRoot } from './workspace.js';

// Requests through the real sandbox; needs root, bubblewrap and cgroups (`bakeoff doctor`).
describe('the bubblewrap sandbox', () => {
  let sandbox: Sandbox;
  let scratch: string;
  const servers: Server[] = [];
  beforeAll(async () => {
    sandbox = (await createIsolation({ controls: Controls.parse({ memoryMb: 128, pids: 64 }), unsafe: false })).sandbox;
    scratch = await scratchRoot(`bwrap-test ${process.pid}`);
  });
  afterAll(async () => {
    for (const s of servers) s.close();
    await disposeScratch(scratch);
  });

  async function exec(command: string, extra: Partial<ExecRequest> = {}) {
    const outputPath = path.join(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-out-')), 'out.log');
    const result = await sandbox.exec({ command, cwd: '/tmp', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20_000, network: 'none', outputPath, binds: [], ...extra });
    return { ...result, output: await readFile(outputPath, 'utf8') };
  }

  it('runs as an unprivileged host uid with no capabilities', async () => {
    const dir = path.join(scratch, 'owned');
    await mkdir(dir);
    await chownTree([dir], sandbox.owner!);
    const r = await exec('id -u; grep -E "Cap(Eff|Prm|Bnd)" /proc/self/status; touch made-inside', { cwd: dir, binds: [{ path: dir, writable: true }] });
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toMatch(/^1000$/m);
    expect(r.output.match(/Cap\w+:\s+0{16}/g)).toHaveLength(3);
    // seen from the host, the sandbox's files belong to the unprivileged uid, not root
    expect((await stat(path.join(dir, 'made-inside'))).uid).toBe(64123);
  });

  it('relays a loopback port to a host unix socket, and nothing else reaches the host', async () => {
    const socket = path.join(scratch, 'model.sock');
    const http = createHttpServer((req, res) => res.end(`model says hi to ${req.url}`));
    await new Promise<void>((resolve) => http.listen(socket, resolve));
    servers.push(http as unknown as Server);
    await chownTree([socket], sandbox.owner!);
    const tcp = createTcpServer((c) => c.end('host service\n'));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    servers.push(tcp);
    const hostPort = (tcp.address() as { port: number }).port;
    const script = [
      `fetch('http://127.0.0.1:18080/v1/messages').then(r => r.text()).then(t => console.log('bridge:', t))`,
      `.catch(e => console.log('bridge failed', e.cause?.code))`,
      `.then(() => fetch('http://127.0.0.1:${hostPort}/')).then(() => console.log('host: reached'), e => console.log('host:', e.cause?.code))`,
    ].join('');
    const r = await exec(`node -e "${script}"`, { modelBridge: { socket, port: 18080 } });
    expect(r.output).toContain('bridge: model says hi to /v1/messages');
    expect(r.output).toContain('host: ECONNREFUSED');
  });

  it('reports the memory limit when the OOM killer ends a command', async () => {
    const r = await exec(`node -e "const a=[]; for(;;) a.push(Buffer.alloc(8<<20, 1))"`);
    expect(r.exitCode).not.toBe(0);
    expect(r.limitHit).toBe('memory');
  });

  it('kills the whole process tree at the wall clock, including setsid children', async () => {
    const marker = `bakeoff-orphan-${process.pid}-${Date.now()}`;
    const started = Date.now();
    const r = await exec(`setsid sh -c 'exec -a ${marker} sleep 300' & sleep 300`, { timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    const { execSync } = await import('node:child_process');
    expect(execSync('ps -eo args', { encoding: 'utf8' })).not.toContain(marker);
  });
});
