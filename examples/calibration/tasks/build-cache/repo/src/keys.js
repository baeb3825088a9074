/**
 * Content-addressed cache keys. A target's key stands for everything its artifact is built
 * from; two requests with the same key can share one artifact. Keys are small integers handed
 * out in order of first appearance, so they stay cheap to compare and store.
 */
export class KeyRing {
  constructor() {
    /** @type {Map<string, { inputHash: string, deps: string[] }>} target -> latest declaration */
    this.declarations = new Map();
    /** @type {Map<string, number>} canonical description -> key */
    this.keys = new Map();
  }

  /** Records what a target is built from now; it replaces the target's earlier declaration. */
  declare(target, inputHash, deps) {
    this.declarations.set(target, { inputHash, deps: [...new Set(deps)].sort() });
  }

  /** The key of a declared target, from the latest declarations. */
  keyOf(target) {
    const { inputHash, deps } = this.declarations.get(target);
    // each dependency is identified by its name and its input hash
    const depParts = deps.map((dep) => [dep, this.declarations.get(dep).inputHash]);
    return this.intern(JSON.stringify([target, inputHash, depParts]));
  }

  /** The key for a canonical description: equal descriptions, equal keys. */
  intern(description) {
    let key = this.keys.get(description);
    if (key === undefined) {
      key = this.keys.size + 1;
      this.keys.set(description, key);
    }
    return key;
  }
}
