import type { RunRecord } from '../../types.js';
import type { ComparePairedResult } from '../view/compare-paired.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';

/** What the private site adds to one order of a run page (absent from the public site). */
export interface PrivateOrderDetail {
  readonly order: number;
  /** `order-<n>/change.patch`; null when the file is missing. */
  readonly patch: string | null;
  /** `order-<n>/agent.log`; null when missing. */
  readonly agentLog: string | null;
  /** `order-<n>/grade/test-output.log` (or `grade/checks.json`); null when missing. */
  readonly testOutput: string | null;
}

/** Everything {@link renderSite} draws; read by the publish command, rendered purely. */
export interface SiteInput {
  /** The leaderboard of all runs (`mixed` must be empty). */
  readonly view: LeaderboardView;
  /** Every run of the view. */
  readonly runs: readonly RunRecord[];
  /** The paired comparison of the top two agents; null with fewer than two agents. */
  readonly comparison: ComparePairedResult | null;
  /**
   * Per run id, the private detail (change, agent output, test output) per order. Undefined for
   * a public site: then no codebase, prompt, hidden test, change or agent output text is drawn.
   */
  readonly privateDetail?: ReadonlyMap<string, readonly PrivateOrderDetail[]>;
  /** When the site was made (ISO time), shown in the footer. */
  readonly generatedAt: string;
}
