/**
 * Cached artifacts by key, with a size budget. Iteration order of the map is recency order:
 * the least recently used entry comes first.
 */
export class LruStore {
  constructor(budget) {
    this.budget = budget;
    this.used = 0;
    /** @type {Map<number, { target: string, size: number }>} */
    this.entries = new Map();
  }

  has(key) {
    return this.entries.has(key);
  }

  /** Marks an entry as the most recently used. */
  touch(key) {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  /** Whether any entry (under any key) belongs to this target. */
  holdsTarget(target) {
    for (const entry of this.entries.values()) {
      if (entry.target === target) return true;
    }
    return false;
  }

  /**
   * Stores an artifact as the most recently used entry, evicting least recently used entries
   * until it fits. Returns the targets of the evicted entries in eviction order, or null
   * (and changes nothing) when the artifact is larger than the whole budget.
   */
  store(key, target, size) {
    if (size > this.budget) return null;
    const evicted = [];
    for (const [oldKey, entry] of this.entries) {
      if (this.used + size <= this.budget) break;
      this.entries.delete(oldKey);
      this.used -= entry.size;
      evicted.push(entry.target);
    }
    this.entries.set(key, { target, size });
    this.used += size;
    return evicted;
  }

  /** The entries, least recently used first. */
  list() {
    return [...this.entries.values()].map(({ target, size }) => ({ target, size }));
  }
}
