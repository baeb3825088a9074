import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, formatUsd } from '../render/format-cells.js';
import { linearAxis, scaleTo } from './chart-axis.js';
import { renderHistogram } from './render-histogram.js';
import { renderScatter, type ScatterPoint } from './render-scatter.js';

/** Every `<text>` the chart draws, in order. */
function texts(html: string): string[] {
  return [...html.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
}

/** The tick labels under the x axis: texts that read as values of the given kind. */
function xTicks(html: string, kind: RegExp): string[] {
  return texts(html).filter((t) => kind.test(t));
}

const SECONDS = /^\d+\.\ds$|^\d+m \d\ds$/;
const DOLLARS = /^\$\d/;
const WHOLE = /^\d+$/;

function timeScatter(points: readonly ScatterPoint[]): string {
  return renderScatter({ title: 'share vs time', xLabel: 'median time', yLabel: 'share', points, formatX: formatDuration, missingX: 'no time data' });
}

describe('renderScatter', () => {
  it('labels the x axis once when every agent has the same value, with the dots between the axis ends', () => {
    const html = timeScatter([{ label: 'a', x: 4, y: 1 }, { label: 'b', x: 4, y: 0.5 }, { label: 'c', x: 4, y: 0 }]);
    expect(xTicks(html, SECONDS)).toEqual(['4.0s']);
    const cx = [...html.matchAll(/<circle[^>]*cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(new Set(cx).size).toBe(1);
    expect(cx[0]).toBeGreaterThan(44 + 50);
    expect(cx[0]).toBeLessThan(400 - 28 - 50);
  });

  it('labels the x axis once when the values differ below the format\'s precision ("0.0s 0.0s 0.0s" before), and draws their dots above that one label', () => {
    const html = timeScatter([{ label: 'a', x: 0.01, y: 1 }, { label: 'b', x: 0.03, y: 0 }, { label: 'c', x: 0.04, y: 0.5 }]);
    expect(xTicks(html, SECONDS)).toEqual(['0.0s']);
    const tick = Number(/<text x="([\d.]+)"[^>]*>0\.0s<\/text>/.exec(html)![1]);
    const cx = [...html.matchAll(/<circle[^>]*cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    // apart, they would read as different times under one "0.0s"
    expect(cx).toEqual([tick, tick, tick]);
  });

  it('labels a zero cost once', () => {
    const html = renderScatter({ title: 't', xLabel: 'cost', yLabel: 'share', points: [{ label: 'a', x: 0, y: 1 }, { label: 'b', x: 0, y: 0 }], formatX: formatUsd, missingX: 'no cost data' });
    expect(xTicks(html, DOLLARS)).toEqual(['$0.000']);
  });

  it('puts round, distinct ticks from 0 past the largest value', () => {
    expect(xTicks(timeScatter([{ label: 'a', x: 2.2, y: 1 }, { label: 'b', x: 12.9, y: 1 }]), SECONDS)).toEqual(['0.0s', '5.0s', '10.0s', '15.0s']);
    const cost = renderScatter({ title: 't', xLabel: 'cost', yLabel: 'share', points: [{ label: 'a', x: 0.003, y: 1 }, { label: 'b', x: 0.013, y: 1 }], formatX: formatUsd, missingX: 'no cost data' });
    expect(xTicks(cost, DOLLARS)).toEqual(['$0.000', '$0.005', '$0.010', '$0.015']);
  });

  it('says "no data" and names the agents without a value when none has one, with no x tick', () => {
    const html = renderScatter({ title: 't', xLabel: 'cost', yLabel: 'share', points: [{ label: 'gold', x: null, y: 1 }, { label: 'noop', x: null, y: 0 }], formatX: formatUsd, missingX: 'no cost data' });
    expect(texts(html)).toContain('no data');
    expect(xTicks(html, DOLLARS)).toEqual([]);
    expect(html).not.toContain('<circle');
    expect(html).toContain('no cost data: gold, noop');
  });

  it('keys each dot by a letter, lists every key with its agent and values, and shares one label between dots at one spot', () => {
    const html = timeScatter([{ label: 'fast', x: 1, y: 1 }, { label: 'twin', x: 1, y: 1 }, { label: 'slow', x: 9, y: 0.5 }, { label: 'none', x: null, y: 0 }]);
    expect(texts(html)).toEqual(expect.arrayContaining(['A,B', 'C']));
    expect(html).toContain('<li><span class="key">A</span> fast: 100.0%, 1.0s</li>');
    expect(html).toContain('<li><span class="key">C</span> slow: 50.0%, 9.0s</li>');
    expect(html).toContain('no time data: none');
  });
});

describe('renderHistogram', () => {
  const time = (values: number[]): string => renderHistogram({ title: 'time per run', xLabel: 'agent time', values, format: formatDuration });
  const lines = (values: number[]): string => renderHistogram({ title: 'lines per run', xLabel: 'lines', values, format: formatCount, integers: true });
  const barTitles = (html: string): string[] => [...html.matchAll(/<rect class="bar"[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]!);

  it('draws equal values as one bar over one tick, and says so in its caption', () => {
    const html = time([5, 5, 5]);
    expect(xTicks(html, SECONDS)).toEqual(['5.0s']);
    expect(barTitles(html)).toEqual(['3 runs at 5.0s']);
    expect(html).toContain('<p class="summary">3 runs; min 5.0s, median 5.0s, max 5.0s</p>');
  });

  it('draws zeros as one bar at 0', () => {
    const html = lines([0, 0]);
    expect(xTicks(html, WHOLE).filter((t) => t !== '2')).toEqual(['0', '0']); // the x tick and the y axis's 0
    expect(barTitles(html)).toEqual(['2 runs at 0']);
  });

  it('says "no data" without runs', () => {
    const html = time([]);
    expect(texts(html)).toContain('no data');
    expect(barTitles(html)).toEqual([]);
    expect(html).toContain('<p class="summary">no data</p>');
  });

  it('counts runs per bin between round ticks, whole-number bins for lines', () => {
    const t = time([2.2, 3.7, 4.1, 6.3, 12.9]);
    expect(xTicks(t, SECONDS)).toEqual(['0.0s', '5.0s', '10.0s', '15.0s']);
    expect(barTitles(t)).toEqual(['1 run from 0.0s to 2.5s', '2 runs from 2.5s to 5.0s', '1 run from 5.0s to 7.5s', '1 run from 12.5s to 15.0s']);
    const l = lines([0, 1, 1, 2, 3]);
    expect(barTitles(l)).toEqual(['1 run at 0', '2 runs at 1', '1 run at 2', '1 run at 3']);
    expect(barTitles(lines([0, 3, 10]))).toEqual(['2 runs from 0 to 4', '1 run from 10 to 14']);
  });
});

describe('linearAxis', () => {
  it('grows the step until no two ticks read the same, so each label sits at its own value', () => {
    // a 0.05 s step would put "0.1s" at 0.05 and again at 0.1
    expect(linearAxis([0.01, 0.09], formatDuration, { fromZero: true })!.ticks).toEqual([{ value: 0, label: '0.0s' }, { value: 0.1, label: '0.1s' }]);
    expect(linearAxis([0.04, 0.06], formatDuration, { fromZero: true })!.ticks.map((t) => t.label)).toEqual(['0.0s', '0.1s']);
    expect(linearAxis([0.0001, 0.0042], formatUsd, { fromZero: true })!.ticks.map((t) => t.label)).toEqual(['$0.000', '$0.002', '$0.004', '$0.006']);
  });

  it('gives distinct positions distinct labels, evenly spaced, over values of every scale and format', () => {
    const sets: [number[], (v: number) => string][] = [
      [[0.01, 0.02, 0.15], formatDuration], [[0.3, 0.31, 0.9], formatDuration], [[2.2, 12.9], formatDuration], [[59, 61, 200], formatDuration],
      [[3000, 9000], formatDuration], [[0.0004, 0.0021], formatUsd], [[0.4, 1.7], formatUsd], [[0, 1, 7], formatCount], [[0.5, 2.5], formatCount],
    ];
    for (const [values, format] of sets) {
      const axis = linearAxis(values, format, { fromZero: true })!;
      const labels = axis.ticks.map((t) => t.label);
      expect(new Set(labels).size, `${values}: ${labels}`).toBe(labels.length);
      expect(labels.length, `${values}: ${labels}`).toBeGreaterThanOrEqual(2);
      axis.ticks.forEach((t, i) => i > 0 && expect(t.value - axis.ticks[i - 1]!.value).toBeCloseTo(axis.step!, 9));
      expect(axis.ticks[0]!.value).toBeLessThanOrEqual(Math.min(...values));
      expect(axis.ticks.at(-1)!.value).toBeGreaterThanOrEqual(Math.max(...values) - 1e-9);
    }
  });

  it('draws every value of a collapsed axis at its one tick', () => {
    const axis = linearAxis([0.01, 0.04], formatDuration)!;
    expect(axis.ticks).toHaveLength(1);
    const px = scaleTo(axis, 0, 100);
    expect([px(0.01), px(0.04), px(axis.ticks[0]!.value)]).toEqual([50, 50, 50]);
  });
});
