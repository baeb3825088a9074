import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../src/index.js';

test('the matching rule with the highest priority decides', () => {
  const { results } = evaluate({
    rules: [
      { id: 'read-all', effect: 'allow', subject: 'user:*', action: 'read', resource: 'repo/**' },
      { id: 'secrets', effect: 'deny', subject: '*', action: '*', resource: 'repo/secrets/*', priority: 10 },
      { id: 'admin', effect: 'allow', subject: 'user:root', action: '*', resource: '**', priority: 20 },
    ],
    queries: [
      { subject: 'user:kai', action: 'read', resource: 'repo/src/main.js' },
      { subject: 'user:kai', action: 'read', resource: 'repo/secrets/key' },
      { subject: 'user:root', action: 'read', resource: 'repo/secrets/key' },
    ],
  });
  assert.deepEqual(results, [
    { decision: 'allow', rule: 'read-all' },
    { decision: 'deny', rule: 'secrets' },
    { decision: 'allow', rule: 'admin' },
  ]);
});

test('a query that no rule matches is denied', () => {
  const { results } = evaluate({
    rules: [{ id: 'docs', effect: 'allow', subject: 'user:*', action: 'read', resource: 'docs/*' }],
    queries: [
      { subject: 'user:kai', action: 'read', resource: 'docs/a/b' },
      { subject: 'service:ci', action: 'read', resource: 'docs/a' },
    ],
  });
  assert.deepEqual(results, [
    { decision: 'deny', rule: null },
    { decision: 'deny', rule: null },
  ]);
});
