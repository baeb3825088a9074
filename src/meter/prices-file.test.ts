import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { openPriceBook } from './price-book.js';
import { loadPricesFile } from './prices-file.js';

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
    expect(prices.get('my-model')).toEqual({ model: 'my-model', provider: '*', input: 2, cacheRead: 2, cacheWrite: 2, output: 8, source: file });
    expect(prices.get('openrouter/openai/gpt-5')).toMatchObject({ provider: 'openrouter', cacheRead: 0.1, cacheWrite: 1.5 });
  });

  it('reads JSON', async () => {
    const prices = await loadPricesFile(await write('p.json', '{"models": {"m": {"input": 1, "output": 2}}}'));
    expect(prices.get('m')?.output).toBe(2);
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

  it('uses the catalog alone without a file', async () => {
    const book = await openPriceBook();
    expect(book.file).toBeNull();
    expect(book.priceOf('claude-sonnet-4-5')).toMatchObject({ input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 });
  });
});
