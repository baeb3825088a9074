import { z } from 'zod';

/** A token count as a harness prints it. Lenient on purpose: one odd field must not void a whole event. */
export const Count = z.number().nonnegative();

/** A cost in USD as a harness prints it. */
export const Usd = z.number().nonnegative();
