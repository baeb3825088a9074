import { readFileSync } from 'node:fs';

/** bakeoff's own version, from package.json. */
export const BAKEOFF_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
