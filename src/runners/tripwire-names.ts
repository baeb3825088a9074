import { randomInt } from 'node:crypto';

/*
 * Names for bakeoff's tests, made from the words of the file's own test names, so they read
 * like the file's tests rather than like something added: `test_line_total_rounds_vat` in a
 * Python file whose tests talk of lines, totals and VAT, `'keeps range partial rule'` in a
 * JavaScript one. Every name is new to the file. Every tripwire copy of a test and the test
 * itself get such a name (grade/tripwire-groups.ts), so names tell none of them apart.
 */

/** A random integer in [0, n): crypto's by default, a seeded one in tests. */
export type Random = (n: number) => number;
export const cryptoRandom: Random = (n) => randomInt(n);

/** Words bakeoff falls back on when a file's names have too few of their own. */
const COMMON = ['handles', 'keeps', 'returns', 'value', 'values', 'case', 'input', 'result', 'empty', 'simple', 'works', 'with', 'when', 'the', 'long', 'short', 'first', 'last', 'many', 'one'];

export type NameStyle = 'title' | 'identifier';

/** Makes fresh names in one file: `style` `identifier` joins words with `_` after `prefix`; `title` with spaces. */
export function createNamer(existing: ReadonlySet<string>, options: { readonly style: NameStyle; readonly prefix: string; readonly random?: Random }): () => string {
  const random = options.random ?? cryptoRandom;
  const taken = new Set(existing);
  const own = new Set<string>();
  for (const name of existing) for (const word of name.toLowerCase().split(/[^a-z0-9]+/)) if (/^[a-z][a-z0-9]{1,15}$/.test(word) && word !== 'test') own.add(word);
  const words = own.size >= 6 ? [...own] : [...own, ...COMMON.filter((w) => !own.has(w))];
  return () => {
    for (let attempt = 0; ; attempt++) {
      const count = 2 + random(3) + (attempt > 20 ? 2 : 0);
      const picked = Array.from({ length: count }, () => words[random(words.length)]!);
      const name = options.style === 'identifier' ? `${options.prefix}${picked.join('_')}` : picked.join(' ');
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  };
}

/** Shuffles `items` in place (Fisher–Yates) and returns them. */
export function shuffle<T>(items: T[], random: Random = cryptoRandom): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
