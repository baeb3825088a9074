// The median of a list of numbers (the mean of the middle two for an even count; NaN for none):
// the one figure every bench prints of its repeated timings.
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
