/** Sums the numbers, or null when there are none: "not reported" is not "zero". */
export function sumOrNull(values: readonly (number | null | undefined)[]): number | null {
  const present = values.filter((v): v is number => typeof v === 'number');
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}
