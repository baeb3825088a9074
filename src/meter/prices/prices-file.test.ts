import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { openPriceBook } from './price-book.js';
import { filePriceAt, loadPricesFile } from './prices-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-prices-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

async function issuesOf(file: string): Promise<string> {
  const error = await loadPricesFile(file).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).message;
}

describe('loadPricesFile', () => {
  it('reads YAML and defaults cache rates to the input rate', async () => {
    const file = await write('p.yaml', 'models:\n  my-model: { input: 2, output: 8 }\n  openrouter/openai/gpt-5: { input: 1, output: 9, cacheRead: 0.1, cacheWrite: 1.5 }\n');
    const prices = await loadPricesFile(file);
    expect(prices.get('my-model')).toEqual({ base: { model: 'my-model', provider: '*', input: 2, cacheRead: 2, cacheWrite: 2, output: 8, source: file, when: null }, windows: [] });
    expect(prices.get('openrouter/openai/gpt-5')?.base).toMatchObject({ provider: 'openrouter', cacheRead: 0.1, cacheWrite: 1.5 });
  });

  it('reads JSON', async () => {
    const prices = await loadPricesFile(await write('p.json', '{"models": {"m": {"input": 1, "output": 2}}}'));
    expect(prices.get('m')?.base.output).toBe(2);
  });

  it('reads time-of-day windows and prices each moment by the first window holding it (UTC, wrapping past midnight)', async () => {
    const file = await write('tod.yaml', [
      'models:',
      '  deepseek-chat:',
      '    input: 0.135',
      '    output: 0.55',
      '    cacheRead: 0.035',
      '    timeOfDay:',
      '      - { from: "00:30", to: "16:30", input: 0.27, output: 1.1, cacheRead: 0.07 }',
      '  night-model:',
      '    input: 2',
      '    output: 4',
      '    timeOfDay: [{ from: "22:00", to: "06:00:30", input: 1, output: 2 }]',
      '',
    ].join('\n'));
    const prices = await loadPricesFile(file);
    const at = (key: string, time: string) => filePriceAt(prices.get(key)!, new Date(`2026-12-01T${time}Z`));
    expect(at('deepseek-chat', '10:00:00')).toMatchObject({ input: 0.27, cacheRead: 0.07, cacheWrite: 0.27, output: 1.1, when: '00:30–16:30 UTC' });
    expect(at('deepseek-chat', '16:30:00')).toMatchObject({ input: 0.135, cacheRead: 0.035, output: 0.55, when: 'outside 00:30–16:30 UTC' });
    expect(at('night-model', '23:00:00')).toMatchObject({ input: 1, when: '22:00–06:00:30 UTC' });
    expect(at('night-model', '06:00:29')).toMatchObject({ input: 1 });
    expect(at('night-model', '06:00:30')).toMatchObject({ input: 2, when: 'outside 22:00–06:00:30 UTC' });
  });

  it('names the field of a bad window', async () => {
    const file = await write('bad-tod.yaml', 'models:\n  m:\n    input: 1\n    output: 2\n    timeOfDay:\n      - { from: "25:00", to: "01:00", input: 1, output: 2 }\n      - { from: "01:00", to: "01:00", input: 1, output: 2 }\n      - { from: "02:00", to: "03:00", input: 1, outpt: 2 }\n');
    const message = await issuesOf(file);
    expect(message).toContain(`${file}: models.m.timeOfDay.0.from: expected a UTC time of day, HH:MM or HH:MM:SS, received "25:00"`);
    expect(message).toContain(`${file}: models.m.timeOfDay.1.to: expected a window whose from and to differ`);
    expect(message).toContain(`${file}: models.m.timeOfDay.2.outpt: expected a known field (did you mean "output"?)`);
  });

  it('names the file, field, expected and received for each bad entry', async () => {
    const file = await write('bad.yaml', 'models:\n  a: { input: -1, output: 2 }\n  b: { input: 1 }\n  c: { input: 1, output: 2, cachRead: 0.1 }\n  d: { input: "3", output: 1 }\n');
    const message = await issuesOf(file);
    expect(message).toContain(`${file}: models.a.input: expected value >= 0, received number -1`);
    expect(message).toContain(`${file}: models.b.output: expected number, received nothing (field missing)`);
    expect(message).toContain(`${file}: models.c.cachRead: expected a known field (did you mean "cacheRead"?), received unknown field "cachRead"`);
    expect(message).toContain(`${file}: models.d.input: expected number, received "3"`);
  });

  it('reports a file that is not YAML or lacks models', async () => {
    expect(await issuesOf(await write('broken.yaml', 'models: [1, 2'))).toMatch(/expected YAML or JSON/);
    const file = await write('typo.yaml', 'model: {}');
    expect(await issuesOf(file)).toBe(
      `${file}: models: expected record, received nothing (field missing)\n${file}: model: expected a known field (did you mean "models"?), received unknown field "model"`,
    );
  });
});

describe('openPriceBook', () => {
  it('prefers the prices file, then the catalog, and names both sources', async () => {
    const file = await write('book.yaml', 'models:\n  claude-sonnet-4-5: { input: 1, output: 2 }\n  anthropic/claude-opus-4-5: { input: 7, output: 70 }\n');
    const book = await openPriceBook(file);
    expect(book.priceOf('claude-sonnet-4-5')).toMatchObject({ input: 1, output: 2, source: file });
    expect(book.priceOf('anthropic/claude-sonnet-4-5')).toMatchObject({ input: 1, source: file });
    expect(book.priceOf('claude-opus-4-5', 'anthropic')).toMatchObject({ input: 7 });
    expect(book.priceOf('gpt-5.5')).toMatchObject({ input: 5, source: 'catalog' });
    expect(book.source).toBe(`@pydantic/genai-prices 0.1.8 (data of 2026-09-23), each token class at its base rate; overridden by ${file}`);
  });

  it('gives the price of the moment asked for, from the file and from the catalog', async () => {
    const file = await write('book-tod.yaml', 'models:\n  my-model:\n    input: 2\n    output: 4\n    timeOfDay: [{ from: "08:00", to: "18:00", input: 3, output: 6 }]\n');
    const book = await openPriceBook(file);
    const morning = new Date('2026-12-01T09:00:00Z');
    const night = new Date('2026-12-01T21:00:00Z');
    expect([book.priceOf('my-model', undefined, morning)?.input, book.priceOf('my-model', undefined, night)?.input]).toEqual([3, 2]);
    expect([book.priceOf('deepseek-chat', undefined, morning)?.input, book.priceOf('deepseek-chat', undefined, night)?.input]).toEqual([0.27, 0.135]);
  });

  it('uses the catalog alone without a file', async () => {
    const book = await openPriceBook();
    expect(book.file).toBeNull();
    expect(book.priceOf('claude-sonnet-4-5')).toMatchObject({ input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 });
  });
});
