import { isStopping } from '../util/index.js';

/**
 * Runs `work` over `items` with at most `concurrency` at once. When one item throws, no new
 * item is started; the ones already running finish, and then the first error is thrown. Nor
 * is one started once bakeoff is stopping (SIGINT).
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { readonly error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length && !isStopping()) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure !== null) throw (failure as { readonly error: unknown }).error;
}
