import { homedir } from 'node:os';
import path from 'node:path';

/** Where a call runs from, and its environment: relative paths resolve against `cwd`. */
export interface Place {
  /** Default: `process.cwd()`. */
  readonly cwd?: string;
  /** Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Prepared repos and validation scratch; default `$BAKEOFF_CACHE_DIR`, else `~/.cache/bakeoff`. */
  readonly cacheDir?: string;
}

export function cwdOf(place: Place): string {
  return place.cwd ?? process.cwd();
}

export function envOf(place: Place): NodeJS.ProcessEnv {
  return place.env ?? process.env;
}

export function cacheDirOf(place: Place): string {
  if (place.cacheDir) return path.resolve(cwdOf(place), place.cacheDir);
  const env = envOf(place);
  return env.BAKEOFF_CACHE_DIR ? path.resolve(cwdOf(place), env.BAKEOFF_CACHE_DIR) : path.join(homedir(), '.cache', 'bakeoff');
}
