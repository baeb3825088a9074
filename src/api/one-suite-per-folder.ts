import path from 'node:path';
import { UserError } from '../errors.js';
import type { Store } from '../store/index.js';
import type { Suite } from '../suite/index.js';
import { differingFields } from '../util/index.js';

/**
 * A results folder holds the runs of one suite hash under one control set, because only those
 * can be ranked together (`report` and `verify` refuse a mix). Baking another suite — or the
 * same suite after it changed — into a folder that already holds runs is refused before
 * anything runs, with both suites named and a folder of its own suggested.
 */
export function refuseOtherSuite(store: Store, suite: Pick<Suite, 'id' | 'hash' | 'controlsDigest' | 'controls'>, cwd: string): void {
  const other = store.runSets().find((s) => s.suiteHash !== suite.hash || s.controlsDigest !== suite.controlsDigest);
  if (!other) return;
  const held = `suite ${other.suiteId} (hash ${other.suiteHash.slice(0, 12)}, controls ${other.controlsDigest.slice(0, 12)})`;
  const now = `suite ${suite.id} (hash ${suite.hash.slice(0, 12)}, controls ${suite.controlsDigest.slice(0, 12)})`;
  const why = other.suiteId !== suite.id
    ? 'another suite'
    : other.suiteHash !== suite.hash ? 'the same suite id, but the suite changed since' : 'the same suite under other controls';
  const changed = other.controlsDigest === suite.controlsDigest ? [] : differingFields(store.controls().get(other.controlsDigest), suite.controls);
  const controls = changed.length === 0 ? '' : `; the controls differ in ${changed.join(', ')}${changed.some((c) => c.startsWith('network ')) ? ' (closed-web and open-web runs are never ranked together)' : ''}`;
  const suggestion = path.relative(cwd, path.join(path.dirname(store.dir), `${suite.id}-${suite.hash.slice(0, 8)}`)) || '.';
  throw new UserError(
    `${store.dir}: holds ${other.runs} run(s) of ${held}; this bake is ${now} — ${why}${controls}. ` +
      `A results folder holds one suite and control set so that it can be ranked: bake into a folder of its own, e.g. --out ${suggestion}`,
  );
}
