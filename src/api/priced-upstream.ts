import { openModelUpstream, type resolveAgents } from '../agents/index.js';
import type { PriceBook } from '../meter/index.js';

type ResolveOptions = Parameters<typeof resolveAgents>[1];

/**
 * How the model agents of a bake (or validate's hackers) reach their model API and are priced:
 * the upstream opens first — one that cannot be reached stops before the large price catalog
 * is read — then the price book (`pricesFile` over the catalog's list prices), closed with the
 * upstream if it cannot be read. Nothing opens unless a model agent is asked for.
 */
export function pricedUpstream(options: { readonly upstream: string; readonly pricesFile: string | undefined; readonly cwd: string; readonly env: NodeJS.ProcessEnv }): Pick<ResolveOptions, 'openUpstream' | 'priceOf'> & { readonly pricesSource: () => string | undefined } {
  let prices: PriceBook | undefined;
  return {
    openUpstream: async (formats) => {
      const opened = await openModelUpstream(options.upstream, { cwd: options.cwd, env: options.env, formats });
      const { openPriceBook } = await import('../meter/index.js');
      prices = await openPriceBook(options.pricesFile).catch(async (error: unknown) => {
        await opened.close();
        throw error;
      });
      return opened;
    },
    priceOf: (model, at) => prices!.priceOf(model, undefined, at),
    /** Where the prices came from, once the upstream was opened. */
    pricesSource: () => prices?.source,
  };
}
