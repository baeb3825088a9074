import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, connect, type Server as NetServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySuite, tempDir } from '../helpers.js';
import { agent, bake, encodeArg, probeOutput, reportRuns, TINY, validate } from './iso-helpers.js';

/*
 * No network from inside an agent session (the only interface is lo, in a namespace of its own),
 * and no way out of the sandbox: no mounts, no new namespaces, no privileges, no host process.
 * Each probe writes what every attempt returned; each attempt must have failed.
 */

let suite: string;

beforeAll(async () => {
  // one task is enough: the sandbox is the same for every task
  suite = await copySuite(TINY);
  await rm(`${suite}/tasks/py-add`, { recursive: true });
  // a session that hangs (say on a stopped init) costs 20 s, not tiny's 60
  const yaml = path.join(suite, 'suite.yaml');
  await writeFile(yaml, (await readFile(yaml, 'utf8')).replace('sessionWallClockSec: 60', 'sessionWallClockSec: 20'));
  await validate(suite);
});

describe('a probe agent trying the network', () => {
  let server: Server;
  let abstractServer: NetServer;
  let port = 0;
  const abstractName = `bakeoff-iso-${randomBytes(6).toString('hex')}`;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      hits.push(`http ${req.url ?? ''}`);
      res.end('host-only answer');
    });
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    port = (server.address() as { port: number }).port;
    abstractServer = createNetServer((socket) => {
      hits.push('abstract');
      socket.end();
    });
    await new Promise<void>((resolve) => abstractServer.listen(`\0${abstractName}`, resolve));
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await new Promise((r) => abstractServer?.close(r));
  });

  it('cannot reach the internet, DNS, the host (loopback, own addresses, abstract sockets); sees only lo', async () => {
    const hostIps = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === 'IPv4')
      .map((i) => i!.address);
    // control: from the host, the server and the abstract socket do answer
    const control = await fetch(`http://127.0.0.1:${port}/control`).then((r) => r.text());
    expect(control).toBe('host-only answer');
    for (const ip of hostIps) expect(await fetch(`http://${ip}:${port}/control`).then((r) => r.status)).toBe(200);
    await new Promise<void>((resolve, reject) => connect({ path: `\0${abstractName}` }, resolve).once('error', reject));
    hits.length = 0;

    const out = await tempDir('bakeoff-iso-net-');
    const spec = agent('probe-network.mjs', encodeArg({ port, hostIps, abstractSocket: abstractName }));
    const result = await bake(suite, [spec], { out });
    expect(result.exitCode, result.stderr).toBe(0);
    const [run] = await reportRuns(out);
    expect(run!.outcome, run!.outcomeDetail ?? '').not.toBe('void');
    const p = await probeOutput<Record<string, unknown>>(out, run!.id);

    const failedToConnect = ['tcpInternet', 'tcpInternet443', 'httpHostLoopback', 'tcpHostLoopback', 'tcpHostLoopbackV6', 'abstractUnixSocket', ...hostIps.map((ip) => `httpHost_${ip}`)];
    for (const key of failedToConnect) {
      expect(p[key], `${key}: ${String(p[key])}`).toBeDefined();
      expect(String(p[key]), key).toMatch(/^(ENETUNREACH|ECONNREFUSED|EHOSTUNREACH|EACCES|EPERM|TIMEOUT|ENOENT)$/);
    }
    expect(String(p.udpDns), 'udpDns').toMatch(/^(ENETUNREACH|EPERM|EACCES)$/);
    for (const key of ['dnsLookup', 'dnsResolve']) expect(String(p[key]), key).not.toMatch(/^RESOLVED/);
    expect(p.interfaces).toEqual(['lo']);
    expect(p.procNetDev).toEqual(['lo']);
    const ipAddr = String(p.ipAddr);
    expect(ipAddr).toMatch(/^1: lo /);
    expect(ipAddr.split('\n').filter(Boolean).every((l) => /^1: lo\s/.test(l)), ipAddr).toBe(true);
    expect(String(p.ipRoute).trim()).toBe('');
    // the host's servers never saw a connection from the sandbox
    expect(hits).toEqual([]);
  });
});

describe('a probe agent trying to break out', () => {
  it('cannot mount, unmount, unshare, nsenter, chroot, become root, write the system or reach a host process', async () => {
    const out = await tempDir('bakeoff-iso-escape-');
    const spec = agent('probe-escapes.mjs', process.pid);
    const result = await bake(suite, [spec], { out });
    expect(result.exitCode, result.stderr).toBe(0);
    const [run] = await reportRuns(out);
    expect(run!.outcome, run!.outcomeDetail ?? '').not.toBe('void');
    type Attempt = { status: number | null; signal: string | null; error: string | null; output: string };
    const p = await probeOutput<Record<string, Attempt> & { status: string[]; init: string[]; initSameNamespaces: boolean; signalHostPid: string }>(out, run!.id);
    // the run did not hang on a stopped init (the probe ptrace-attaches it)
    expect(run!.agentSec).toBeLessThan(15);
    const refused = (key: string, message: RegExp): void => {
      const a = p[key]!;
      expect(a, key).toBeDefined();
      // the tool ran (it exists in the sandbox) and failed
      expect(a.error, `${key}: ${JSON.stringify(a)}`).toBeNull();
      expect(a.status, `${key}: ${JSON.stringify(a)}`).not.toBe(0);
      expect(a.status, `${key}: ${JSON.stringify(a)}`).not.toBeNull();
      expect(a.output, key).toMatch(message);
    };
    refused('mountTmpfs', /must be superuser|permission denied|not permitted/i);
    refused('mountBind', /must be superuser|permission denied|not permitted/i);
    refused('remountRootRw', /must be superuser|permission denied|not permitted/i);
    refused('umountProc', /must be superuser|permission denied|not permitted/i);
    refused('umountLazyRoot', /must be superuser|permission denied|not permitted/i);
    // no nested user namespaces (bwrap --disable-userns: the count limit is 0), no others without one
    refused('unshareUserRoot', /unshare failed: (No space left on device|Operation not permitted)/);
    refused('unshareMount', /unshare failed: Operation not permitted/);
    refused('unsharePid', /unshare failed: Operation not permitted/);
    refused('nsenterInit', /failed|not permitted/i);
    refused('chroot', /Operation not permitted/);
    // uid 0 does not exist in the sandbox's user namespace: setuid(0) is EINVAL (22) or EPERM (1)
    expect([1, 22], JSON.stringify(p.setuidRoot)).toContain(p.setuidRoot!.status);
    // a host process (this test's own pid) does not exist in the sandbox's pid namespace
    expect(p.signalHostPid).toBe('ESRCH');
    expect(p.ptraceHostPid!.status, JSON.stringify(p.ptraceHostPid)).toBe(3); // ESRCH
    // ptrace of the sandbox's own init (bwrap, pid 1) is not refused on this kernel (same uid, no
    // Yama LSM), but it gives nothing: init shares the agent's namespaces and has no capability
    // either. (If attaching is refused one day, better still.)
    expect(p.initSameNamespaces).toBe(true);
    expect(p.init.join('\n')).toMatch(/CapEff:\t0000000000000000/);
    expect(p.init.join('\n')).toMatch(/CapBnd:\t0000000000000000/);
    if (p.ptraceInit!.status !== 0) expect(p.ptraceInit!.output).toMatch(/not permitted/i);
    // and the agent itself has no capability, no uid 0, and no_new_privs set
    expect(p.status.join('\n')).toMatch(/CapEff:\t0000000000000000/);
    expect(p.status.join('\n')).toMatch(/CapBnd:\t0000000000000000/);
    expect(p.status.join('\n')).toMatch(/NoNewPrivs:\t1/);
    expect(p.status.join('\n')).not.toMatch(/Uid:\t0\s/);
    for (const key of ['writeRootFs', 'writeUsr', 'writeEtc']) expect(p[key], key).toBe('EROFS');
    expect(p.writeSysrq).toMatch(/^(ENOENT|EACCES|EROFS|EPERM)$/);
  });
});
