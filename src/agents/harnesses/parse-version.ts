/**
 * The first `x.y.z` version in a CLI's `--version` output (`2.1.332 (Claude Code)`,
 * `codex-cli 0.171.0`, `0.73.1`), or null when there is none.
 */
export function parseSemver(output: string): string | null {
  return /\b(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\b/.exec(output)?.[1] ?? null;
}
