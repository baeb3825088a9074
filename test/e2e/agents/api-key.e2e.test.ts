import { writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../src/model-server/index.js';
import { bakeoff, tempDir } from '../helpers.js';
import { expectNoLeak, leakCount, oneTaskSuite, requireHarnesses } from './agent-helpers.js';

// The real key, split so that no command line in the sandbox ever holds it whole.
const KEY_HEAD = 'sk-real-';
const KEY_TAIL = 'canary-5e1f0c9a';
const REAL_KEY = KEY_HEAD + KEY_TAIL;

/** What the agent runs through Claude Code's Bash tool: look for the key everywhere it could be, write the counts. */
const SEARCH = [
  `K="$(printf '%s%s' '${KEY_HEAD}' '${KEY_TAIL}')"`,
  '{',
  '  echo "env $(env | grep -c -- "$K")"',
  '  echo "dummy-env $(env | grep -c -- sk-bakeoff-dummy)"',
  // the pattern is a regex that does not match itself: the grep's own command line (which the
  // loop may read while the grep runs) does not count as a find
  `  echo "proc $(for p in /proc/[0-9]*; do cat $p/environ $p/cmdline 2>/dev/null | tr '\\0' '\\n'; done | grep -c -- '${KEY_HEAD}${KEY_TAIL.slice(0, -1)}[${KEY_TAIL.slice(-1)}]')"`,
  `  echo "dummy-proc $(for p in /proc/[0-9]*; do cat $p/environ 2>/dev/null | tr '\\0' '\\n'; done | grep -c -- sk-bakeoff-dummy)"`,
  '  echo "processes $(ls -d /proc/[0-9]* | wc -l)"',
  '  echo "files $(grep -rIl -s --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr --exclude-dir=harnesses -- "$K" / 2>/dev/null | wc -l)"',
  '  echo "searched $(find / \\( -path /proc -o -path /sys -o -path /usr -o -name harnesses \\) -prune -o -type f -print 2>/dev/null | wc -l)"',
  '} > leak-report.txt',
  // then try to make bakeoff copy its own environment into the results: swap the file the CLI's
  // stdout goes to (its path is on a command line) for a symlink to /proc/self/environ
  `f=$(for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done | grep -o "/[^' ]*/stream.jsonl" | head -1)`,
  'echo "stream-file ${f:-none}" >> leak-report.txt',
  'rm -f "$f" 2>/dev/null; ln -sf /proc/self/environ "$f" 2>/dev/null; echo "swapped $?" >> leak-report.txt',
].join('\n');

/*
 * API keys stay on the host: the sandbox holds a dummy; the metering proxy strips it and
 * injects the real key. A real Claude Code, driven by a replay script, searches the sandbox for
 * the real key — environment, every process's environment and command line, every file — and
 * writes what it found into its change.
 */
describe('the real API key never enters the sandbox', () => {
  let model: ModelServer;
  let front: Server;
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  let report = '';
  let out = '';

  beforeAll(async () => {
    await requireHarnesses();
    const dir = await tempDir();
    const script = path.join(dir, 'search.json');
    await writeFile(script, JSON.stringify({ replies: [{ tool: { name: 'Bash', args: { command: SEARCH, description: 'look for the key' } } }, { text: 'Searched.' }] }));
    model = await startModelServer({ listen: { host: '127.0.0.1', port: 0 }, script });
    // an "API" that records the headers it is sent, then answers from the replay script
    front = createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const target = new URL(req.url ?? '/', model.url);
      const up = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const suite = await oneTaskSuite(120);
    out = await tempDir();
    const r = await bakeoff(
      ['run', suite, '--agent', 'claude-code:claude-sonnet-4-5', '--upstream', `http://127.0.0.1:${(front.address() as AddressInfo).port}`, '--runs', '1', '--out', out, '--json'],
      { env: { BAKEOFF_UPSTREAM_API_KEY: REAL_KEY, ANTHROPIC_API_KEY: REAL_KEY, OPENAI_API_KEY: REAL_KEY } },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const runs = (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: { id: string }[] }).runs;
    report = await readFile(path.join(out, 'runs', runs[0]!.id, 'order-1', 'change.patch'), 'utf8');
  }, 600_000);

  afterAll(async () => {
    front?.close();
    await model?.close();
  });

  it('the proxy sent the real key upstream, never the dummy; the reachability check sends no key at all', () => {
    // the --upstream preflight is a keyless GET of the model list (decision 014: a key goes only where a session's requests go)
    const preflight = (r: (typeof seen)[number]) => r.method === 'GET' && r.url.split('?')[0] === '/v1/models' && r.headers['x-api-key'] === undefined;
    const sessions = seen.filter((r) => !preflight(r));
    expect(sessions.length).toBeGreaterThan(0);
    for (const r of sessions) expect(r.headers['x-api-key'], `${r.method} ${r.url}`).toBe(REAL_KEY);
    for (const r of seen) expect(JSON.stringify(r.headers)).not.toContain('sk-bakeoff-dummy');
    for (const r of seen.filter(preflight)) expect(JSON.stringify(r.headers)).not.toContain(REAL_KEY);
  });

  it('the results folder (database, every artifact) does not hold the real key, even after the agent tried to swap a file for a symlink', async () => {
    expect(report).toMatch(/^\+stream-file \/.*stream\.jsonl$/m);
    expect(report).toMatch(/^\+swapped [1-9]/m); // the bound file cannot be replaced
    const { execa } = await import('execa');
    const grep = await execa('grep', ['-rlF', REAL_KEY, out], { reject: false });
    expect(grep.stdout).toBe('');
    expect(grep.exitCode).toBe(1); // 1: searched, nothing found
  });

  it('inside, the search found the dummy key but not the real one: not in the environment, any process, or any file', () => {
    // positive controls: the search finds the dummy key
    expect(leakCount(report, 'dummy-env')).toBeGreaterThan(0);
    expect(leakCount(report, 'dummy-proc')).toBeGreaterThan(0);
    expectNoLeak(report);
  });
});
