import { describe, expect, it } from 'vitest';
import { fitColumns, rowWidth, wrapWords } from './fit-columns.js';

const col = (width: number, dropOrder: number | null) => ({ width, dropOrder });

describe('fitColumns', () => {
  // widths 5, 10, 20, 8 with gap 2: 49 in all
  const four = [col(5, null), col(10, 1), col(20, 0), col(8, 2)];
  it.each([
    { name: 'everything fits', columns: four, max: 49, kept: [0, 1, 2, 3], dropped: [], width: 49 },
    { name: 'one too wide: the lowest order leaves', columns: four, max: 48, kept: [0, 1, 3], dropped: [2], width: 27 },
    { name: 'leaves in order until it fits', columns: four, max: 20, kept: [0, 3], dropped: [2, 1], width: 15 },
    { name: 'never below the columns that stay', columns: four, max: 3, kept: [0], dropped: [2, 1, 3], width: 5 },
    { name: 'ties leave right to left', columns: [col(4, null), col(4, 0), col(4, 0)], max: 10, kept: [0, 1], dropped: [2], width: 10 },
    { name: 'nothing may leave', columns: [col(30, null), col(30, null)], max: 40, kept: [0, 1], dropped: [], width: 62 },
    { name: 'no columns', columns: [], max: 10, kept: [], dropped: [], width: 0 },
    { name: 'greedy: a narrow low-order column leaves though a wide one alone would do', columns: [col(10, null), col(2, 0), col(30, 1)], max: 40, kept: [0], dropped: [1, 2], width: 10 },
  ])('$name', ({ columns, max, kept, dropped, width }) => {
    const fit = fitColumns(columns, max, 2);
    expect(fit).toEqual({ kept, dropped, width });
  });
});

describe('rowWidth', () => {
  it.each([
    { widths: [], gap: 2, width: 0 },
    { widths: [7], gap: 2, width: 7 },
    { widths: [1, 2, 3], gap: 2, width: 10 },
    { widths: [1, 2, 3], gap: 1, width: 8 },
  ])('$widths with gap $gap is $width', ({ widths, gap, width }) => {
    expect(rowWidth(widths, gap)).toBe(width);
  });
});

describe('wrapWords', () => {
  it.each([
    { text: 'a bb ccc dddd', width: 6, indent: '', lines: ['a bb', 'ccc', 'dddd'] },
    { text: 'a bb ccc dddd', width: 100, indent: '', lines: ['a bb ccc dddd'] },
    { text: 'a bb ccc dddd', width: 6, indent: '  ', lines: ['a bb', '  ccc', '  dddd'] },
    { text: 'short averyveryverylongword end', width: 8, indent: '', lines: ['short', 'averyveryverylongword', 'end'] },
    { text: '', width: 5, indent: '', lines: [] },
  ])('$text at $width (indent "$indent")', ({ text, width, indent, lines }) => {
    expect(wrapWords(text, width, indent)).toEqual(lines);
  });
});
