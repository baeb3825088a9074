import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/index.js';

test('a repeated request is a hit and a changed input is a rebuild', () => {
  const result = simulate({
    budget: 100,
    requests: [
      { target: 'core', inputHash: 'c1', size: 10 },
      { target: 'core', inputHash: 'c1', size: 10 },
      { target: 'core', inputHash: 'c2', size: 12 },
    ],
  });
  assert.deepEqual(
    result.results.map((r) => r.decision),
    ['miss', 'hit', 'rebuild'],
  );
  assert.deepEqual(result.cache, [
    { target: 'core', size: 10 },
    { target: 'core', size: 12 },
  ]);
  assert.equal(result.used, 22);
});

test('changing a dependency rebuilds the target that depends on it', () => {
  const result = simulate({
    budget: 100,
    requests: [
      { target: 'core', inputHash: 'c1', size: 10 },
      { target: 'app', inputHash: 'a1', deps: ['core'], size: 20 },
      { target: 'core', inputHash: 'c2', size: 10 },
      { target: 'app', inputHash: 'a1', deps: ['core'], size: 20 },
    ],
  });
  assert.deepEqual(
    result.results.map((r) => r.decision),
    ['miss', 'miss', 'rebuild', 'rebuild'],
  );
});
