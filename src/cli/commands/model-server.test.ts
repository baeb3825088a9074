import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { modelServerCommand } from './model-server.js';

const dir = await mkdtemp(path.join(tmpdir(), 'bakeoff-model-server-command-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the command until `act` is done, with the URL it printed; returns its exit code and output. */
async function runCommand(flags: Parameters<typeof modelServerCommand>[0], act: (url: string) => Promise<void>): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  const stop = new AbortController();
  const done = modelServerCommand(flags, { stdout, cwd: dir }, { signal: stop.signal });
  while (!/listening on (\S+)/.test(out)) await new Promise((r) => setTimeout(r, 5));
  await act(/listening on (\S+)/.exec(out)![1]!);
  stop.abort();
  return { code: await done, out };
}

describe('modelServerCommand', () => {
  it('prints its URL, one line per request, logs bodies, and stops on the signal with exit 0', async () => {
    await writeFile(path.join(dir, 'session.json'), JSON.stringify({ workspace: '/w', edits: [{ path: 'a.txt', before: null, after: 'hi\n' }] }));
    const tools = [{ name: 'write', input_schema: { type: 'object', properties: { path: {}, content: {} } } }];
    const { code, out } = await runCommand({ script: 'gold', host: '127.0.0.1', port: 0, log: 'requests.jsonl', session: 'session.json' }, async (url) => {
      await fetch(`${url}/v1/messages?beta=true`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [], tools }) });
      await fetch(`${url}/v1/models`);
    });
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual([
      expect.stringMatching(/^model server \(script gold\) listening on http:\/\/127\.0\.0\.1:\d+$/),
      '#1 POST /v1/messages?beta=true anthropic-messages m -> 200 tool:write',
      '#2 GET /v1/models -> 200 list-models',
      '',
    ]);
    const logged = (await readFile(path.join(dir, 'requests.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(logged[0]).toMatchObject({ seq: 1, reply: 'tool:write', body: { model: 'm' }, headers: { 'content-type': expect.any(String) } });
  });

  it('knows the truncated and disconnect scripts by name (not as replay files)', async () => {
    const body = JSON.stringify({ model: 'm', stream: true, messages: [] });
    for (const script of ['truncated', 'disconnect']) {
      const { out } = await runCommand({ script, host: '127.0.0.1', port: 0 }, async (url) => {
        await fetch(`${url}/v1/messages`, { method: 'POST', body }).then((r) => r.text()).catch(() => 'cut');
      });
      expect(out).toContain(`#1 POST /v1/messages anthropic-messages m -> 200 ${script}`);
    }
  });

  it('resolves a replay file against the working directory and refuses a bad session file', async () => {
    await writeFile(path.join(dir, 'replay.json'), JSON.stringify({ replies: [{ text: 'replayed' }] }));
    const { out } = await runCommand({ script: 'replay.json', host: '127.0.0.1', port: 0 }, async () => undefined);
    expect(out).toMatch(/^model server \(script replay\.json\) listening on/);
    await writeFile(path.join(dir, 'bad-session.json'), JSON.stringify({ workspace: '/w' }));
    await expect(modelServerCommand({ script: 'gold', host: '127.0.0.1', port: 0, session: 'bad-session.json' }, { stdout: new PassThrough(), cwd: dir })).rejects.toThrow(
      /bad-session\.json: edits: expected/,
    );
  });
});

describe('modelServerCommand on a taken port', () => {
  it('says which port is taken, as a user error', async () => {
    const { code } = await runCommand({ script: 'gold', host: '127.0.0.1', port: 0 }, async (url) => {
      const port = Number(new URL(url).port);
      await expect(modelServerCommand({ script: 'gold', host: '127.0.0.1', port }, { stdout: new PassThrough(), cwd: dir })).rejects.toThrow(
        `cannot listen on 127.0.0.1:${port} (EADDRINUSE): choose another --port`,
      );
    });
    expect(code).toBe(0);
  });
});
