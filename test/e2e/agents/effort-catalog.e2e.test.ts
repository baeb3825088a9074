import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codex } from '../../../src/agents/harnesses/codex/index.js';
import { binOf } from '../../../src/agents/install-harness.js';
import { startModelServer, type ModelServer } from '../../../src/model-server/index.js';
import { bakeoff, tempDir } from '../helpers.js';
import { oneTaskSuite, requireHarnesses } from './agent-helpers.js';

interface StoredRun { id: string; agent_json: string; effort_catalog_json: string | null }

/*
 * `@lowest` comes from the installed Codex CLI's own catalog (`codex debug models`), not from a
 * table in bakeoff: a Codex home whose config.toml names another catalog (`model_catalog_json`,
 * an input the real CLI reads) where gpt-5.5 takes medium and high only makes the run use
 * medium (the bundled catalog's lowest is low). The real codex runs sandboxed against a local
 * model API that records every request body.
 */
describe('effort levels from the installed CLI\'s catalog', () => {
  let model: ModelServer;
  let front: Server;
  const efforts: (string | null)[] = [];
  let suite = '';
  let out = '';
  let codexHome = '';
  let emptyHome = '';
  let upstream = '';
  let catalogText = '';

  beforeAll(async () => {
    await requireHarnesses();
    const dir = await tempDir();
    // the bundled catalog as the installed CLI prints it, with gpt-5.5 cut down to medium and high
    emptyHome = path.join(dir, 'home');
    await mkdir(emptyHome);
    const bundled = JSON.parse((await execa(binOf(codex), ['debug', 'models', '--bundled'], { env: { HOME: emptyHome, CODEX_HOME: emptyHome } })).stdout) as { models: { slug: string; supported_reasoning_levels: { effort: string }[] }[] };
    const gpt = bundled.models.find((m) => m.slug === 'gpt-5.5')!;
    expect(gpt.supported_reasoning_levels.map((l) => l.effort)).toContain('low');
    codexHome = path.join(dir, 'codex-home');
    await mkdir(codexHome);
    const cut = { ...gpt, supported_reasoning_levels: gpt.supported_reasoning_levels.filter((l) => l.effort === 'medium' || l.effort === 'high') };
    await writeFile(path.join(codexHome, 'catalog.json'), JSON.stringify({ models: [cut] }));
    await writeFile(path.join(codexHome, 'config.toml'), `model_catalog_json = ${JSON.stringify(path.join(codexHome, 'catalog.json'))}\n`);
    catalogText = (await execa(binOf(codex), ['debug', 'models'], { env: { HOME: emptyHome, CODEX_HOME: codexHome }, stripFinalNewline: false })).stdout;

    const script = path.join(dir, 'done.json');
    await writeFile(script, JSON.stringify({ replies: [{ text: 'Done.' }] }));
    model = await startModelServer({ listen: { host: '127.0.0.1', port: 0 }, script });
    // a model API that records the effort of every request, then answers from the script
    front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        try {
          efforts.push((JSON.parse(body.toString('utf8')) as { reasoning?: { effort?: string } }).reasoning?.effort ?? null);
        } catch {
          efforts.push(null);
        }
        const target = new URL(req.url ?? '/', model.url);
        const up = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.end(body);
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    upstream = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    suite = await oneTaskSuite(120);
    out = await tempDir();
  }, 300_000);

  afterAll(async () => {
    front?.close();
    await model?.close();
  });

  const run = (spec: string, env: Record<string, string>) =>
    bakeoff(['run', suite, '--agent', spec, '--upstream', upstream, '--runs', '1', '--out', out, '--json'], { env: { BAKEOFF_UPSTREAM_API_KEY: 'sk-test', ...env } });
  const storedRuns = (): StoredRun[] => {
    const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
    try {
      return db.prepare('SELECT id, agent_json, effort_catalog_json FROM runs ORDER BY started_at').all() as StoredRun[];
    } finally {
      db.close();
    }
  };

  it('resolves @lowest from that catalog: the run and the CLI\'s requests use medium, and the run records the catalog\'s digest', async () => {
    const r = await run('codex:gpt-5.5@lowest', { HOME: emptyHome, CODEX_HOME: codexHome });
    expect(r.exitCode, r.stderr).toBe(0);
    const [stored] = storedRuns();
    expect(JSON.parse(stored!.agent_json)).toMatchObject({ id: 'codex:gpt-5.5@medium', effort: 'medium' });
    expect(JSON.parse(stored!.effort_catalog_json!)).toEqual({
      source: `codex debug models with CODEX_HOME=${codexHome} (not the bundled catalog: it comes from that Codex home)`,
      digest: createHash('sha256').update(catalogText).digest('hex'),
      requested: 'lowest',
      resolved: 'medium',
    });
    const sent = efforts.filter((e) => e !== null);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set(['medium']));
    const report = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: { effortCatalog: unknown }[] };
    expect(report.runs[0]!.effortCatalog).toEqual(JSON.parse(stored!.effort_catalog_json!));
  }, 300_000);

  it('`bakeoff agents` says, per harness, where its levels come from', async () => {
    const r = await bakeoff(['agents', '--json'], { env: { HOME: emptyHome, CODEX_HOME: codexHome } });
    expect(r.exitCode, r.stderr).toBe(0);
    const listed = (JSON.parse(r.stdout) as { harnesses: { harness: string; efforts: string[]; effortsFrom: string }[] }).harnesses;
    expect(listed.find((h) => h.harness === 'codex')).toMatchObject({ efforts: ['medium', 'high'], effortsFrom: `codex debug models with CODEX_HOME=${codexHome} (not the bundled catalog: it comes from that Codex home)` });
    expect(listed.find((h) => h.harness === 'claude-code')!.effortsFrom).toMatch(/^bakeoff's table of Claude Code 2\.1\.332's --effort levels/);
    const text = await bakeoff(['agents'], { env: { HOME: emptyHome } });
    expect(text.stdout).toMatch(/^effort levels come from:$/m);
    expect(text.stdout).toMatch(/^ {2}codex: codex debug models --bundled/m);
  });

  it('refuses a level that catalog does not list (exit 2), naming the levels it does', async () => {
    const r = await run('codex:gpt-5.5@low', { HOME: emptyHome, CODEX_HOME: codexHome });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--agent: codex:gpt-5.5@low: expected one of medium, high, lowest or highest (from codex debug models with CODEX_HOME=');
    expect(r.stderr).toContain('received "low"');
  });

  it('a bake resolved from another catalog (the bundled one) is not comparable with the first: report refuses to rank them', async () => {
    const r = await run('codex:gpt-5.5@lowest', { HOME: emptyHome });
    expect(r.exitCode, r.stderr).toBe(0);
    const runs = storedRuns();
    expect(runs).toHaveLength(2);
    expect(JSON.parse(runs[1]!.agent_json)).toMatchObject({ id: 'codex:gpt-5.5@low', effort: 'low' });
    expect(JSON.parse(runs[1]!.effort_catalog_json!)).toMatchObject({ source: expect.stringMatching(/^codex debug models --bundled/), resolved: 'low' });
    expect(efforts.filter((e) => e !== null)).toContain('low');
    const report = await bakeoff(['report', out]);
    expect(report.exitCode).toBe(2);
    expect(report.stderr).toMatch(/refusing to rank runs that differ in catalog\.codex \([0-9a-f]{12} vs [0-9a-f]{12}\)/);
    const compare = await bakeoff(['report', out, '--compare', 'codex:gpt-5.5@medium', 'codex:gpt-5.5@low']);
    expect(compare.exitCode).toBe(2);
    expect(compare.stderr).toMatch(/their runs differ in catalog\.codex/);
  }, 300_000);
});
