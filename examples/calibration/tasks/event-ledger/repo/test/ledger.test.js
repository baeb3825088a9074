import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replay } from '../src/index.js';

test('deposits, withdrawals and transfers update the balances', () => {
  const result = replay({
    events: [
      { seq: 1, type: 'open', account: 'alice' },
      { seq: 2, type: 'open', account: 'bob' },
      { seq: 3, type: 'deposit', account: 'alice', amount: 1000 },
      { seq: 4, type: 'withdraw', account: 'alice', amount: 300 },
      { seq: 5, type: 'transfer', from: 'alice', to: 'bob', amount: 200 },
    ],
  });
  assert.deepEqual(result, {
    accounts: [
      { id: 'alice', balance: 500, status: 'open' },
      { id: 'bob', balance: 200, status: 'open' },
    ],
    rejected: [],
  });
});

test('a withdrawal past the overdraft limit is rejected and changes nothing', () => {
  const result = replay({
    events: [
      { seq: 1, type: 'open', account: 'carol', overdraft: 100 },
      { seq: 2, type: 'withdraw', account: 'carol', amount: 101 },
      { seq: 3, type: 'withdraw', account: 'carol', amount: 100 },
    ],
  });
  assert.deepEqual(result, {
    accounts: [{ id: 'carol', balance: -100, status: 'open' }],
    rejected: [{ seq: 2, reason: 'insufficient-funds' }],
  });
});
