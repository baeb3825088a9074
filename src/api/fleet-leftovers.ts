import { cleanFleetLeftovers, describeFleetLeftover, findFleetLeftovers } from '../queue/staging.js';
import { cacheDirOf, type Place } from './paths.js';

/**
 * What killed fleet workers left in this machine's cache folder, for `doctor` (each with whether
 * `clean` removed it). Its own file, so that `doctor` loads the staging folder's rules and not
 * the queue client (BullMQ, ioredis).
 */
export async function fleetLeftovers(place: Place, clean: boolean): Promise<{ readonly path: string; readonly description: string; readonly stale: boolean; readonly cleaned?: boolean }[]> {
  const found = await findFleetLeftovers(cacheDirOf(place));
  const removed = clean ? await cleanFleetLeftovers(found) : [];
  return found.map((l) => ({ path: l.path, description: describeFleetLeftover(l), stale: l.owner === 'gone', ...(clean ? { cleaned: removed.includes(l) } : {}) }));
}
