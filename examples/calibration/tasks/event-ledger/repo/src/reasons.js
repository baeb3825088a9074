/** Why an event was rejected. A rejected event changes nothing. */
export const Reason = Object.freeze({
  INVALID_EVENT: 'invalid-event',
  INVALID_AMOUNT: 'invalid-amount',
  ACCOUNT_EXISTS: 'account-exists',
  UNKNOWN_ACCOUNT: 'unknown-account',
  ACCOUNT_CLOSED: 'account-closed',
  SAME_ACCOUNT: 'same-account',
  INSUFFICIENT_FUNDS: 'insufficient-funds',
  NONZERO_BALANCE: 'nonzero-balance',
});

/** Thrown while applying an event; `replay` records it and moves on to the next event. */
export class Rejection extends Error {
  /** @param {string} reason one of the values of `Reason` */
  constructor(reason) {
    super(reason);
    this.name = 'Rejection';
    this.reason = reason;
  }
}
