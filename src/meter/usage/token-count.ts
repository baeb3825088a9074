import { z } from 'zod';

/** A token count as the APIs send it: a non-negative integer. */
export const TokenCount = z.number().int().nonnegative();

/** A cost in USD as a provider reports it (OpenRouter `usage.cost`). */
export const ReportedCost = z.number().nonnegative();
