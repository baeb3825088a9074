import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeoff, FIXTURES, ROOT, tempDir } from './helpers.js';

describe('bad input', () => {
  it('names file, field, expected and received for every error in a suite with typos (exit 2)', async () => {
    const r = await bakeoff(['validate', path.join(FIXTURES, 'suites/typo')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/suite\.yaml: controls\.runsPerTsk: expected a known field \(did you mean "runsPerTask"\?\), received unknown field "runsPerTsk"/);
    expect(r.stderr).toMatch(/task\.yaml: kind: expected one of "bug", "feature", received "bugg"/);
    expect(r.stderr).toMatch(/task\.yaml: language: expected one of "js", "ts", "python", "rust", received "javascript"/);
  });

  it('rejects an unknown agent spec with the accepted forms (exit 2)', async () => {
    const r = await bakeoff(['run', path.join(ROOT, 'examples/starter'), '--agent', 'nonsense', '--out', await tempDir()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/expected one of gold, noop, patch:<file.jsonl>, command:<shell command>/);
  });

  it('rejects a malformed patch file naming the line (exit 2)', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'changes.jsonl');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, '{"task":"a","order":1,"patch":""}\n{"task":"a","ordr":1}\n');
    const r = await bakeoff(['run', path.join(ROOT, 'examples/starter'), '--agent', `patch:${file}`, '--out', dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/changes\.jsonl:2: ordr: expected a known field \(did you mean "order"\?\)/);
  });

  it('rejects a bad flag value (exit 2)', async () => {
    const r = await bakeoff(['run', path.join(ROOT, 'examples/starter'), '--agent', 'gold', '--runs', 'zero']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/expected a whole number >= 1, received "zero"/);
  });

  it('says a folder is not a results folder (exit 2)', async () => {
    const r = await bakeoff(['report', await tempDir()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/not a results folder/);
  });

  it('refuses --out that is a file, and a model server port or host it cannot use, with a sentence (exit 2)', async () => {
    const dir = await tempDir();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(dir, 'a-file'), '');
    const out = await bakeoff(['run', path.join(ROOT, 'examples/starter'), '--agent', 'noop', '--out', path.join(dir, 'a-file')]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain(`${path.join(dir, 'a-file')}: not a folder`);
    const port = await bakeoff(['model-server', '--port', '99999']);
    expect(port.exitCode).toBe(2);
    expect(port.stderr).toMatch(/--port <n>' argument '99999' is invalid\. expected a port from 1 to 65535/);
    for (const host of ['999.1.1.1', '10.255.255.254']) {
      const r = await bakeoff(['model-server', '--host', host, '--port', '18799']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^bakeoff: --host ${host.replaceAll('.', '\\.')}: not an address of this machine \\((ENOTFOUND|EAI_AGAIN|EADDRNOTAVAIL)\\)`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('names the field of a malformed scripted session and replay script, with what arrived (exit 2)', async () => {
    const dir = await tempDir();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(dir, 'session.json'), JSON.stringify({ workspace: '/w', edits: [{ path: 'a.js', before: 1 }] }));
    await writeFile(path.join(dir, 'replay.json'), JSON.stringify({ replies: [{ tool: { x: 1 } }] }));
    const session = await bakeoff(['model-server', '--session', path.join(dir, 'session.json'), '--port', '18798']);
    expect(session.exitCode).toBe(2);
    expect(session.stderr).toContain('session.json: edits.0.before: expected string, received number 1');
    expect(session.stderr).toContain('session.json: edits.0.after: expected string, received nothing (field missing)');
    expect(session.stderr).not.toContain('Invalid input');
    const replay = await bakeoff(['model-server', '--script', path.join(dir, 'replay.json'), '--port', '18798']);
    expect(replay.exitCode).toBe(2);
    expect(replay.stderr).toContain('replay.json: replies.0: expected {"text"}, {"tool": {"name", "args"}} or {"status", "body"?, "headers"?}, each with an optional "delaySec", received {"tool":{"x":1}}');
  });

  it('rejects a prompt that is not UTF-8, or too big for every agent to receive, before anything runs (exit 2)', async () => {
    const { copySuite } = await import('./helpers.js');
    const { writeFile } = await import('node:fs/promises');
    const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    const latin1 = path.join(suite, 'tasks/add/orders/1/prompt.md');
    await writeFile(latin1, Buffer.concat([Buffer.from('Make add work for the caf'), Buffer.from([0xe9]), Buffer.from(' menu.\n')]));
    const huge = path.join(suite, 'tasks/py-add/orders/1/prompt.md');
    await writeFile(huge, 'Fix it.\n' + 'context line\n'.repeat(400_000));
    for (const command of ['validate', 'run']) {
      const r = await bakeoff(command === 'run' ? ['run', suite, '--agent', 'gold', '--out', await tempDir()] : ['validate', suite]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${latin1}: expected UTF-8 text, received a byte that is not UTF-8 (0xe9) at offset 25, line 1`);
      expect(r.stderr).toContain(`${huge}: expected a prompt of at most 98304 bytes (96 KiB), received 5200008 bytes`);
    }
  });
});
