import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { UserError } from '../errors.js';
import { comparePaired, renderComparePage, sitePages, type SiteInput, type SiteSuite } from '../report/index.js';
import { openStore, readHolder, type Store } from '../store/index.js';
import { loadSuite } from '../suite/index.js';
import { judgeProcess } from '../util/index.js';
import { notifyVia, type NoteEvent } from './events.js';
import { readLiveRuns } from './live-runs.js';
import { cwdOf, type Place } from './paths.js';
import { costByClassOf, readPrivateDetail, siteSuiteOf } from './publish.js';
import { leaderboard } from './report.js';
import { searchRuns } from './search-runs.js';

export interface ViewRequest extends Place {
  /** The results folder (a bake may be running in it). */
  readonly results: string;
  /** Address to listen on (default 127.0.0.1: this machine only). */
  readonly host?: string;
  /** Port (default: any free one). */
  readonly port?: number;
  readonly onEvent?: (event: NoteEvent) => void;
}

/** A running viewer: where to open it, and how to stop it. */
export interface Viewer {
  /** `http://127.0.0.1:PORT/TOKEN/`: every page is under the token; anything else is 404. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `bakeoff view`: a read-only web server over a results folder — the private site's pages,
 * drawn from the store when asked for, live while a bake runs (the runs at work from
 * the live file (`resultsPaths().live`), new runs as they are stored), plus a runs page searched on the server, and the
 * paired comparison of any two agents. Only GET; nothing is written to the results folder. The
 * random token in every URL keeps other users of the machine (and pages in the browser) out.
 */
export async function view(request: ViewRequest): Promise<Viewer> {
  const notify = notifyVia(request.onEvent);
  const dir = path.resolve(cwdOf(request), request.results);
  const store = openStore(dir, { create: false });
  try {
    const suite = await bakedSiteSuite(store, request.results);
    const token = randomBytes(18).toString('base64url');
    const pages = createPageCache(store, suite);
    const server = createServer((req, res) => {
      void handle(req, res, token, store, pages).catch((error: unknown) => send(res, 500, 'text/plain; charset=utf-8', `bakeoff view: ${(error as Error).message ?? String(error)}\n`));
    });
    const host = request.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(request.port ?? 0, host, () => resolve());
    });
    const { port } = server.address() as { port: number };
    if (host !== '127.0.0.1' && host !== '::1' && host !== 'localhost') notify.note(`listening on ${host}: anyone who can reach it and has the URL sees the private pages`);
    return {
      url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/${token}/`,
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        store.close();
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** The suite of the folder's latest bake, as the site names it. */
async function bakedSiteSuite(store: Store, shown: string): Promise<SiteSuite> {
  const bake = store.bakes()[0];
  if (bake === undefined) throw new UserError(`${shown}: no bake recorded in this results folder yet (bakeoff run writes one when it starts)`);
  const suite = await loadSuite(bake.suiteDir).catch((error: unknown) => {
    throw new UserError(`${shown}: the suite it was baked from, ${bake.suiteDir}, cannot be loaded (${(error as Error).message}); the viewer names tasks from it`);
  });
  return siteSuiteOf(suite);
}

/** What changes when the results do: the stored runs per suite and controls, and the live file. */
function changeKey(store: Store): string {
  return JSON.stringify([store.runSets(), readLiveRuns(store.dir).mtimeMs]);
}

/** The site's input for the folder as it is now, drawn again only when the key changes. */
function createPageCache(store: Store, suite: SiteSuite) {
  let cached: { key: string; input: SiteInput; pages: Map<string, () => string>; drawn: Map<string, string> } | null = null;
  return {
    async now() {
      const key = changeKey(store);
      if (cached?.key === key) return cached;
      const runs = store.listRuns();
      const view = await leaderboard(store, runs);
      const controls = [...store.controls().values()];
      const [first, second] = view.agents;
      const input: SiteInput = {
        suite,
        view,
        runs,
        comparison: first && second ? comparePaired(runs, { a: first.agent.id, b: second.agent.id, controls: controls.length === 1 ? controls[0] : controls }) : null,
        workers: new Map(store.attempts().filter((a) => a.state === 'recorded').map((a) => [a.runId, a.worker])),
        costByClass: costByClassOf(runs),
        generatedAt: new Date().toISOString(),
        privateDetail: new Map(),
        live: true,
      };
      cached = { key, input, pages: sitePages(input), drawn: new Map() };
      return cached;
    },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, token: string, store: Store, pages: ReturnType<typeof createPageCache>): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://viewer');
  const prefix = `/${token}/`;
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.pathname.startsWith(prefix)) return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  const file = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
  const site = await pages.now();
  if (file === 'api/state') return send(res, 200, 'application/json', JSON.stringify(stateOf(store, site.key)));
  if (file === 'api/search') {
    const q = url.searchParams.get('q') ?? '';
    return send(res, 200, 'application/json', JSON.stringify({ q, runs: await searchRuns(store, site.input.runs, q) }));
  }
  if (file === 'compare.html' && url.searchParams.has('a') && url.searchParams.has('b')) {
    const controls = [...store.controls().values()];
    const picked = comparePaired(site.input.runs, { a: url.searchParams.get('a')!, b: url.searchParams.get('b')!, controls: controls.length === 1 ? controls[0] : controls });
    return send(res, 200, 'text/html; charset=utf-8', renderComparePage(site.input, picked));
  }
  const drawn = site.drawn.get(file);
  if (drawn !== undefined) return send(res, 200, 'text/html; charset=utf-8', drawn);
  const run = file.startsWith('runs/') ? site.input.runs.find((r) => `runs/${r.id}.html` === file) : undefined;
  if (run !== undefined) {
    // a run page with its private detail: read for that run only, when it is asked for
    const detail = await readPrivateDetail(store, [run]);
    const page = sitePages({ ...site.input, privateDetail: detail }).get(file)!();
    return send(res, 200, 'text/html; charset=utf-8', page);
  }
  const render = site.pages.get(file);
  if (render === undefined) return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  const html = render();
  site.drawn.set(file, html);
  return send(res, 200, 'text/html; charset=utf-8', html);
}

/** `api/state`: whether a bake is at work in the folder, its runs at work, and the change key. */
function stateOf(store: Store, key: string) {
  const holder = readHolder(store.dir);
  const alive = holder !== null && holder.command === 'run' && judgeProcess(holder) === 'alive';
  return {
    key,
    nowMs: Date.now(),
    alive,
    holder: alive ? `a bake is running (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt})` : null,
    running: alive ? readLiveRuns(store.dir).running : [],
  };
}

/** Headers every answer carries: nothing cached, nothing loaded from elsewhere, the token never sent on. */
function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
