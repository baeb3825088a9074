import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * Longest test file first, on a fresh clone too. vitest's own order uses its cache of the last
 * run's durations and, without one (CI clones afresh), file size — which put the heaviest e2e
 * files (small files that bake whole suites) last, leaving one of the two workers alone for
 * minutes at the end. Durations come from vitest's cache when it has them, otherwise from
 * test/setup/durations.json (scripts/test-durations.mjs writes it from a full run); a file in
 * neither counts as 30 s. Groups keep vitest's order (sequence.groupOrder); within a group, the
 * files of all its projects (tiers) are one queue. BAKEOFF_SHOW_ORDER=1 prints the order.
 */
const UNKNOWN_MS = 30_000;
const known = JSON.parse(readFileSync(path.join(import.meta.dirname, 'durations.json'), 'utf8')) as Record<string, number>;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durationOf = (spec: TestSpecification): number => {
      const file = path.relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      return cached?.duration ?? (known[file] !== undefined ? known[file] * 1000 : UNKNOWN_MS);
    };
    const sorted = [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      return durationOf(b) - durationOf(a);
    });
    if (process.env.BAKEOFF_SHOW_ORDER) console.error(sorted.map((s) => `${s.project.name} ${path.relative(root, s.moduleId)} ${durationOf(s)}`).join('\n'));
    return sorted;
  }
}
