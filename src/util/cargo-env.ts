/**
 * Cargo without incremental compilation, for every task's setup and every grading's build and
 * test run. A grading compiles the crates the change touches once, from the prepared repo's
 * target, and keeps nothing: rustc's incremental session (target/debug/incremental, copied up
 * through the workspace's overlay) cost half of each grading's build and was never reused.
 * The setup builds the same way, so crates a change leaves alone stay fresh in a grading (cargo
 * rebuilds a crate whose incremental setting differs from its last build's).
 */
export const CARGO_NOT_INCREMENTAL = { CARGO_INCREMENTAL: '0' } as const;
