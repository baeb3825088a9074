/** Clears what killed bakeoffs left (mounts, scratch folders, cgroups); every command but doctor calls it first. */
export { sweepLeftovers } from '../sandbox/leftovers.js';
