import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { copySuite, ROOT } from './helpers.js';

/**
 * A private copy of examples/calibration cut down to fewer tasks, seeds or levels (for test
 * time), so validate writes its lock and TASKS.md there and never into the committed suite.
 */
export async function calibrationCopy(options: { tasks?: readonly string[]; seeds?: readonly number[]; levels?: readonly number[]; level?: number } = {}): Promise<string> {
  const suite = await copySuite(path.join(ROOT, 'examples/calibration'));
  if (options.tasks) {
    for (const task of ['access-policy', 'build-cache', 'event-ledger']) {
      if (!options.tasks.includes(task)) await rm(path.join(suite, 'tasks', task), { recursive: true });
    }
  }
  let yaml = await readFile(path.join(suite, 'suite.yaml'), 'utf8');
  const set = (key: string, value: string) => {
    const line = new RegExp(`^  ${key}: .*$`, 'm');
    if (!line.test(yaml)) throw new Error(`examples/calibration/suite.yaml has no controls.${key} line to replace`);
    yaml = yaml.replace(line, `  ${key}: ${value}`);
  };
  if (options.seeds) set('seeds', `[${options.seeds.join(', ')}]`);
  if (options.levels) set('levels', `[${options.levels.join(', ')}]`);
  if (options.level !== undefined) set('level', String(options.level));
  await writeFile(path.join(suite, 'suite.yaml'), yaml);
  return suite;
}
