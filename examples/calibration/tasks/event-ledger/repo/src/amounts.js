import { Reason, Rejection } from './reasons.js';

/** Amounts are whole cents: positive integers. */
export function requireAmount(value) {
  if (!Number.isInteger(value) || value <= 0) throw new Rejection(Reason.INVALID_AMOUNT);
  return value;
}

/** An overdraft limit is a whole number of cents, zero or more; absent means 0. */
export function requireLimit(value) {
  if (value === undefined || value === null) return 0;
  if (!Number.isInteger(value) || value < 0) throw new Rejection(Reason.INVALID_AMOUNT);
  return value;
}
