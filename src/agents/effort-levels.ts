import { sha256, type ProbeCache } from '../util/index.js';
import type { EffortCatalogRef } from '../types.js';
import type { Harness } from './harnesses/types.js';
import { binOf } from './install-harness.js';

/** Where a harness's effort levels come from: its CLI's own catalog, or bakeoff's table. */
export interface LevelSource {
  readonly kind: 'cli' | 'table';
  /** e.g. `codex debug models --bundled (…)`, or the table's own description. */
  readonly source: string;
  /** sha256 of the catalog text (CLI), or of the table's harness, pinned version and source. */
  readonly digest: string;
  /** The model's levels; null: a CLI catalog that does not list the model. */
  levels(model: string): readonly string[] | null;
  /** The catalog text, for the CLI to use in the session (null: a table). */
  readonly text: string | null;
}

/** What a table harness says when it does not name its table. */
const DEFAULT_TABLE_SOURCE = "bakeoff's table for the pinned CLI";

/** A probe cache and the install stamp what the CLI's catalog reader keeps is filed under. */
export interface KeptCatalogs {
  readonly probes: ProbeCache;
  readonly stamp: unknown;
}

/**
 * Reads a harness's levels once per bake: a harness with `catalog` runs its installed CLI (on
 * the host), the others use bakeoff's table for the pinned version, labelled as such. `cache`
 * holds what was read, by harness name, so several agents of one harness read it once; `kept`
 * lets the catalog reader keep what depends on the install alone between invocations.
 */
export async function levelSourceOf(harness: Harness, env: Readonly<Record<string, string | undefined>>, cache?: Map<string, Promise<LevelSource>>, kept?: KeptCatalogs): Promise<LevelSource> {
  const known = cache?.get(harness.name);
  if (known) return known;
  const reading = readLevelSource(harness, env, kept);
  cache?.set(harness.name, reading);
  return reading;
}

async function readLevelSource(harness: Harness, env: Readonly<Record<string, string | undefined>>, kept: KeptCatalogs | undefined): Promise<LevelSource> {
  if (harness.catalog) {
    const keep = kept ? (what: string, read: () => Promise<string>) => kept.probes.remember(`catalog-${harness.name}-${harness.version}-${what}`, kept.stamp, read) : undefined;
    const catalog = await harness.catalog({ bin: binOf(harness, env as NodeJS.ProcessEnv), env, ...(keep ? { keep } : {}) });
    const digest = sha256(catalog.text);
    return { kind: 'cli', source: catalog.source, digest, levels: (model) => catalog.levels(model), text: catalog.text };
  }
  const source = harness.effortsSource ?? DEFAULT_TABLE_SOURCE;
  const table = (model: string): readonly string[] => harness.efforts?.(model) ?? [];
  return {
    kind: 'table',
    source,
    // the table is code of this bakeoff for this pinned CLI: the same for every model it lists
    digest: sha256(JSON.stringify({ harness: harness.name, version: harness.version, source })),
    levels: table,
    text: null,
  };
}

/** Effort names from lowest to highest, as Codex, Claude Code, pi and OpenCode use them (`off`: pi's no thinking). */
const CANONICAL = ['off', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'ultra'];

/** The levels lowest first: by the canonical order when every level is in it, else as listed. */
export function orderLevels(levels: readonly string[]): readonly string[] {
  if (!levels.every((l) => CANONICAL.includes(l))) return levels;
  return [...levels].sort((a, b) => CANONICAL.indexOf(a) - CANONICAL.indexOf(b));
}

/**
 * The level an effort as written selects, from the model's levels: `lowest` / `highest` → the
 * lowest / highest under the canonical order, a named level → itself when listed. For a level
 * the source does not list: what was expected, and why when that does not say it (`error`).
 */
export function resolveLevel(
  written: { readonly harness: string; readonly model: string; readonly effort: string | null },
  source: LevelSource,
): { readonly effort: string | null; readonly ref: EffortCatalogRef } | { readonly error: string | null; readonly expected: string } {
  const listed = source.levels(written.model);
  const ref = (effort: string | null): EffortCatalogRef => ({ source: source.source, digest: source.digest, requested: written.effort, resolved: effort });
  if (written.effort === null) return { effort: null, ref: ref(null) };
  if (listed === null) {
    return { error: `the model catalog (${source.source}) has no model "${written.model}", so it has no effort levels`, expected: `a model of that catalog, or no @effort` };
  }
  const levels = orderLevels(listed);
  // a model without levels at its lowest / highest is the model as it comes
  if (levels.length === 0 && (written.effort === 'lowest' || written.effort === 'highest')) return { effort: null, ref: ref(null) };
  if (levels.length === 0) {
    return { error: `${written.harness} has no effort setting for ${written.model} (${source.source})`, expected: 'no @effort (or @lowest)' };
  }
  const expected = `one of ${levels.join(', ')}, lowest or highest (from ${source.source})`;
  if (written.effort === 'lowest') return { effort: levels[0]!, ref: ref(levels[0]!) };
  if (written.effort === 'highest') return { effort: levels.at(-1)!, ref: ref(levels.at(-1)!) };
  if (levels.includes(written.effort)) return { effort: written.effort, ref: ref(written.effort) };
  return { error: null, expected };
}
