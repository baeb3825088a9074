import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';
import { freePort } from './fleet-helpers.js';

/*
 * A fleet's Redis behind TLS with client certificates and a password, as a careful operator runs
 * it: Debian's redis-server with `--tls-port`, `--tls-auth-clients yes` and `--requirepass`,
 * certificates made here with openssl. `bakeoff queue status` connects the way every fleet
 * command does (the same address, files and environment).
 */

const PASSWORD = 'pw-0f3c9a7e1b2d';

describe('a fleet queue over TLS', () => {
  let dir: string;
  let port: number;
  let server: ResultPromise | undefined;
  const pem = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    dir = await tempDir('bakeoff-fleet-tls-');
    const ssl = (args: string[]) => execa('openssl', args, { cwd: dir });
    await ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=bakeoff test CA']);
    await writeFile(pem('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
    for (const [name, subject, ext] of [['server', '/CN=127.0.0.1', ['-extfile', 'server.ext']], ['client', '/CN=bakeoff worker', []]] as const) {
      await ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
      await ssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', ...ext]);
    }
    port = await freePort();
    server = execa('redis-server', ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--tls-cert-file', pem('server.pem'), '--tls-key-file', pem('server.key'), '--tls-ca-cert-file', pem('ca.pem'), '--tls-auth-clients', 'yes', '--requirepass', PASSWORD, '--save', '', '--appendonly', 'no'], { reject: false });
    let out = '';
    server.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    for (let i = 0; !out.includes('Ready to accept connections'); i++) {
      if (i > 300 || server.exitCode !== null) throw new Error(`redis-server with TLS did not start:\n${out}`);
      await sleep(50);
    }
  }, 60_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server;
  });

  it('connects with the CA, a client certificate and the password from the environment; each missing piece is exit 3 naming what to give, never the password', async () => {
    const url = `rediss://127.0.0.1:${port}/0`;
    const files = ['--queue-ca', pem('ca.pem'), '--queue-cert', pem('client.pem'), '--queue-key', pem('client.key')];
    const env = { BAKEOFF_QUEUE_URL: url, BAKEOFF_QUEUE_PASSWORD: PASSWORD, BAKEOFF_QUEUE_CA: pem('ca.pem'), BAKEOFF_QUEUE_CERT: pem('client.pem'), BAKEOFF_QUEUE_KEY: pem('client.key') };
    // seven commands that each connect (or are refused) on their own: started at once, not one after another
    const [ok, fromEnv, noCa, noClientCert, wrong, halfPair, plain] = await Promise.all([
      bakeoff(['queue', 'status', '--queue', url, ...files, '--json'], { env: { BAKEOFF_QUEUE_PASSWORD: PASSWORD } }),
      // all of it from the environment: no address, file or password in argv
      bakeoff(['queue', 'status', '--json'], { env }),
      bakeoff(['queue', 'status', '--queue', url, '--queue-cert', pem('client.pem'), '--queue-key', pem('client.key')], { env: { BAKEOFF_QUEUE_PASSWORD: PASSWORD } }),
      bakeoff(['queue', 'status', '--queue', url, '--queue-ca', pem('ca.pem')], { env: { BAKEOFF_QUEUE_PASSWORD: PASSWORD } }),
      bakeoff(['queue', 'status', '--queue', `rediss://:not-${PASSWORD}@127.0.0.1:${port}/0`, ...files]),
      bakeoff(['queue', 'status', '--queue', url, '--queue-cert', pem('client.pem')]),
      bakeoff(['queue', 'status', '--queue', `redis://127.0.0.1:${port}/0`, '--queue-ca', pem('ca.pem')]),
    ]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ url, bake: null, workers: [] });
    expect(fromEnv.exitCode, fromEnv.stderr).toBe(0);
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ url, bake: null });

    expect(noCa.exitCode, noCa.stderr).toBe(3);
    expect(noCa.stderr).toMatch(new RegExp(`cannot reach the queue's Redis at rediss://127\\.0\\.0\\.1:${port}/0: .*certificate.*\\. For TLS give --queue-ca`));

    expect(noClientCert.exitCode, noClientCert.stderr).toBe(3);
    expect(noClientCert.stderr).toContain(`cannot reach the queue's Redis at ${url}`);

    expect(wrong.exitCode, wrong.stderr).toBe(3);
    expect(wrong.stderr).toMatch(/WRONGPASS|NOAUTH|AUTH/);
    expect(wrong.stderr).toContain('Give its password in BAKEOFF_QUEUE_PASSWORD');
    expect(wrong.stderr).not.toContain(PASSWORD);

    expect(halfPair.exitCode).toBe(2);
    expect(halfPair.stderr).toContain('--queue-cert and --queue-key: expected both (a client certificate and its key), received only --queue-cert');
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain('TLS files are for a rediss:// queue');
  }, 120_000);
});
