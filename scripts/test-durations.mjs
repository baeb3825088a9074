#!/usr/bin/env node
// Writes test/setup/durations.json from vitest's own cache of the last full run
// (node_modules/.vite/vitest/*/results.json): seconds per test file over 2 s, for the files that
// still exist. The sequencer (test/setup/sequencer.ts) starts the longest files first, so a fresh
// clone (no cache, as in CI) does not leave the heaviest e2e file for last on one of two workers.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const cacheRoot = 'node_modules/.vite/vitest';
const dirs = existsSync(cacheRoot) ? readdirSync(cacheRoot) : [];
if (dirs.length === 0) {
  console.error(`test-durations: no vitest cache under ${cacheRoot}; run the full test command first`);
  process.exit(3);
}
const seconds = {};
for (const dir of dirs) {
  const { results } = JSON.parse(readFileSync(path.join(cacheRoot, dir, 'results.json'), 'utf8'));
  for (const [key, { duration }] of results) {
    const file = key.slice(key.indexOf(':') + 1);
    if (duration > 2000 && existsSync(file)) seconds[file] = Math.round(duration / 1000);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1]));
writeFileSync('test/setup/durations.json', `${JSON.stringify(sorted, null, 1)}\n`);
console.error(`test-durations: ${Object.keys(sorted).length} files written to test/setup/durations.json`);
