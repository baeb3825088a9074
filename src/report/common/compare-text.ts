/** Code-unit order for ids: stable across machines and locales (unlike localeCompare). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
