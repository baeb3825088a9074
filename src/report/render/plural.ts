/** `1 run`, `3 runs`; `many` for irregular plurals (`2 bug fixes`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
