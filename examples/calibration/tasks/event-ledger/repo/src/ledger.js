import { AccountBook } from './accounts.js';
import { requireAmount, requireLimit } from './amounts.js';
import { Reason, Rejection } from './reasons.js';

/**
 * Replays account events in order and returns the final balances and the rejected events.
 *
 * @param {{ events: Array<object> }} input
 * @returns {{ accounts: Array<{ id: string, balance: number, status: 'open' | 'closed' }>,
 *   rejected: Array<{ seq: number, reason: string }> }}
 */
export function replay(input) {
  const book = new AccountBook();
  const rejected = [];
  for (const event of input.events) {
    try {
      apply(book, event);
    } catch (error) {
      if (!(error instanceof Rejection)) throw error;
      rejected.push({ seq: event.seq, reason: error.reason });
    }
  }
  return { accounts: book.list(), rejected };
}

/** Applies one event, or throws a Rejection and changes nothing. */
function apply(book, event) {
  switch (event.type) {
    case 'open': {
      const overdraft = requireLimit(event.overdraft);
      book.open(event.account, overdraft);
      return;
    }
    case 'deposit': {
      const amount = requireAmount(event.amount);
      book.findOpen(event.account).balance += amount;
      return;
    }
    case 'withdraw': {
      const amount = requireAmount(event.amount);
      const account = book.findOpen(event.account);
      book.requireFunds(account, amount);
      account.balance -= amount;
      return;
    }
    case 'transfer': {
      const amount = requireAmount(event.amount);
      const from = book.findOpen(event.from);
      const to = book.find(event.to);
      if (from === to) throw new Rejection(Reason.SAME_ACCOUNT);
      book.requireFunds(from, amount);
      from.balance -= amount;
      to.balance += amount;
      return;
    }
    case 'close': {
      const account = book.findOpen(event.account);
      if (account.balance !== 0) throw new Rejection(Reason.NONZERO_BALANCE);
      account.closed = true;
      return;
    }
    default:
      throw new Rejection(Reason.INVALID_EVENT);
  }
}
