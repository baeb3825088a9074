/**
 * The JSON objects of a JSONL stream, in order. Lines that are blank, not JSON, or not an
 * object (a CLI's stray log line, a line cut off by a timeout) are skipped, never fatal.
 */
export function readJsonLines(stdout: string): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    const text = line.trim();
    if (!text.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) records.push(value as Record<string, unknown>);
    } catch {
      // Not JSON: skipped by contract.
    }
  }
  return records;
}
