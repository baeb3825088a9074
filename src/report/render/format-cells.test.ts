import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, formatShare, formatTokens, formatUsd } from './format-cells.js';

describe('format-cells', () => {
  it('formats a share with its interval in percent, one decimal', () => {
    expect(formatShare(0.5, { low: 0.2366, high: 0.7634 })).toBe('50.0% [23.7–76.3]');
    expect(formatShare(0.5, null)).toBe('50.0%');
  });

  it('formats durations in seconds, minutes and hours without showing 60s', () => {
    expect(formatDuration(42.46)).toBe('42.5s');
    expect(formatDuration(59.96)).toBe('1m 00s');
    expect(formatDuration(245)).toBe('4m 05s');
    expect(formatDuration(7380)).toBe('2h 03m');
  });

  it('formats token counts with three significant digits and a unit', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(12_345)).toBe('12.3k');
    expect(formatTokens(999_600)).toBe('1.00M');
    expect(formatTokens(4_560_000)).toBe('4.56M');
    expect(formatTokens(1_200_000_000)).toBe('1.20B');
  });

  it('formats dollars with cents, and a third decimal below a dollar', () => {
    expect(formatUsd(1.75)).toBe('$1.75');
    expect(formatUsd(0.0421)).toBe('$0.042');
  });

  it('keeps halves of an even-count median', () => {
    expect(formatCount(13.5)).toBe('13.5');
    expect(formatCount(13)).toBe('13');
  });

  it('shows every missing value as a dash', () => {
    for (const format of [formatDuration, formatCount, formatTokens, formatUsd]) expect(format(null)).toBe('–');
    expect(formatShare(null, null)).toBe('–');
  });
});
