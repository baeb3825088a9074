import { Reason, Rejection } from './reasons.js';

/** The accounts of one replay, by id. Accounts are never deleted: a closed account stays closed. */
export class AccountBook {
  constructor() {
    /** @type {Map<string, { id: string, balance: number, overdraft: number, closed: boolean }>} */
    this.accounts = new Map();
  }

  open(id, overdraft) {
    if (this.accounts.has(id)) throw new Rejection(Reason.ACCOUNT_EXISTS);
    const account = { id, balance: 0, overdraft, closed: false };
    this.accounts.set(id, account);
    return account;
  }

  /** The account with this id, open or closed. */
  find(id) {
    const account = this.accounts.get(id);
    if (account === undefined) throw new Rejection(Reason.UNKNOWN_ACCOUNT);
    return account;
  }

  /** The account with this id, which must still be open. */
  findOpen(id) {
    const account = this.find(id);
    if (account.closed) throw new Rejection(Reason.ACCOUNT_CLOSED);
    return account;
  }

  /** Throws unless `amount` can leave the account without going past its overdraft limit. */
  requireFunds(account, amount) {
    if (account.balance - amount < -account.overdraft) throw new Rejection(Reason.INSUFFICIENT_FUNDS);
  }

  /** Every account, sorted by id. */
  list() {
    return [...this.accounts.values()]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((a) => ({ id: a.id, balance: a.balance, status: a.closed ? 'closed' : 'open' }));
  }
}
