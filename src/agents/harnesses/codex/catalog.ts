import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InfraError } from '../../../errors.js';
import { execFileWithParent } from '../../../util/index.js';
import type { CatalogInput, CliCatalog } from '../types.js';

/** `codex debug models` prints ~1 MB (every model's instructions). */
const MAX_CATALOG_BYTES = 64 * 1024 * 1024;

/**
 * Codex's model catalog, read from the installed CLI: `codex debug models` "renders the raw
 * model catalog as JSON" — with `--bundled`, the catalog compiled into this binary; without, the
 * catalog Codex itself would use in the given CODEX_HOME (its `config.toml`'s
 * `model_catalog_json`, a ChatGPT login's refreshed `models_cache.json`, merged over the bundled
 * one). The user's Codex home (`$CODEX_HOME`, else `~/.codex`) is read when it exists, else
 * the bundled catalog; the source says which, and whether it differs from the bundled one.
 */
export async function readCodexCatalog(input: CatalogInput): Promise<CliCatalog> {
  // the bundled catalog is compiled into the binary: kept while the install is unchanged
  const bundled = input.keep ? await input.keep('bundled-catalog', () => debugModels(input, null)) : await debugModels(input, null);
  const userHome = input.env.CODEX_HOME ? path.resolve(input.env.CODEX_HOME) : input.env.HOME ? path.join(input.env.HOME, '.codex') : null;
  if (userHome === null || !existsSync(userHome)) {
    return catalogOf('codex debug models --bundled (no Codex home: the catalog shipped with this codex binary)', bundled);
  }
  const live = await debugModels(input, userHome);
  const same = live === bundled ? 'the same as the bundled catalog' : 'not the bundled catalog: it comes from that Codex home';
  return catalogOf(`codex debug models with CODEX_HOME=${userHome} (${same})`, live);
}

/** `codex debug models [--bundled]`: with CODEX_HOME `home`, or (bundled) a throwaway one. */
async function debugModels(input: CatalogInput, home: string | null): Promise<string> {
  const scratch = home === null ? await mkdtemp(path.join(os.tmpdir(), 'bakeoff-codex-catalog-')) : null;
  const codexHome = home ?? scratch!;
  const args = ['debug', 'models', ...(home === null ? ['--bundled'] : [])];
  try {
    const env = { PATH: input.env.PATH ?? '/usr/bin:/bin', HOME: input.env.HOME ?? codexHome, CODEX_HOME: codexHome };
    const { stdout } = await execFileWithParent(input.bin, args, { timeout: 60_000, maxBuffer: MAX_CATALOG_BYTES, env });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    const said = (e.stderr ?? '').trim().split('\n').slice(-3).join(' ') || e.message;
    throw new InfraError(`reading Codex's model catalog: \`${input.bin} ${args.join(' ')}\` with CODEX_HOME=${codexHome} failed: ${said}`);
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

interface CatalogJson {
  readonly models: readonly { readonly slug: string; readonly supported_reasoning_levels?: readonly { readonly effort: string }[] }[];
}

function catalogOf(source: string, text: string): CliCatalog {
  let parsed: CatalogJson;
  try {
    parsed = JSON.parse(text) as CatalogJson;
    if (!Array.isArray(parsed.models) || parsed.models.some((m) => typeof m?.slug !== 'string')) throw new Error('no "models" list of entries with a "slug"');
  } catch (error) {
    throw new InfraError(`reading Codex's model catalog (${source}): expected JSON {"models": [{"slug", "supported_reasoning_levels"}]}, received something else (${(error as Error).message})`);
  }
  const levels = new Map<string, string[]>();
  for (const m of parsed.models) {
    const listed: readonly { readonly effort?: unknown }[] = Array.isArray(m.supported_reasoning_levels) ? m.supported_reasoning_levels : [];
    levels.set(m.slug, listed.map((l) => l?.effort).filter((e): e is string => typeof e === 'string'));
  }
  return { source, text, levels: (model) => levels.get(model) ?? null };
}
