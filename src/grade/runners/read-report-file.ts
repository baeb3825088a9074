import { readFile } from 'node:fs/promises';

/** Reads a report file as UTF-8, or returns undefined when the runner never wrote it. */
export async function readReportFile(filePath: string): Promise<string | undefined> {
  try {
    return await readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
