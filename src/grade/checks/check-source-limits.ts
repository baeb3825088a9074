import type { CheckLimits } from './types.js';

/**
 * Says which source limit the program breaks, with the numbers, or returns undefined when
 * it keeps both. Bytes are counted as UTF-8.
 */
export function checkSourceLimits(files: Readonly<Record<string, string>>, limits: Pick<CheckLimits, 'maxFiles' | 'maxSourceBytes'>): string | undefined {
  const count = Object.keys(files).length;
  const bytes = Object.values(files).reduce((sum, source) => sum + Buffer.byteLength(source, 'utf8'), 0);
  const broken: string[] = [];
  if (count > limits.maxFiles) broken.push(`it has ${count} JS files, over the limit of ${limits.maxFiles}`);
  if (bytes > limits.maxSourceBytes) broken.push(`its JS files total ${bytes} bytes, over the limit of ${limits.maxSourceBytes} bytes`);
  return broken.length ? `the program breaks the source limit: ${broken.join('; ')}` : undefined;
}
