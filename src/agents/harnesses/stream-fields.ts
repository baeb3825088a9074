import { z } from 'zod';

/** A token count as a harness prints it. Lenient on purpose: one odd field must not void a whole event. */
export const Count = z.number().nonnegative();

/** A cost in USD as a harness prints it. */
export const Usd = z.number().nonnegative();

/** Sums the numbers, or null when there are none: "not reported" is not "zero". */
export function sumOrNull(values: readonly (number | null | undefined)[]): number | null {
  const present = values.filter((v): v is number => typeof v === 'number');
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}
