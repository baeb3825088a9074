import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planConformance, readSamples, type Sample } from './conformance-samples.test-support.js';

const sample = (name: string, format: string): Sample => ({ name, format, dir: `/fixtures/${name}`, command: { bare: 'true' } });

describe('planConformance', () => {
  const samples = [sample('pytest', 'pytest'), sample('pytest-unittest', 'pytest'), sample('tap-tape', 'tap')];

  it('runs every sample of every registered runner', () => {
    const plan = planConformance(['pytest', 'tap'], samples);
    expect(plan.samples.map((s) => s.name)).toEqual(['pytest', 'pytest-unittest', 'tap-tape']);
    expect(plan).toMatchObject({ withoutSample: [], unregistered: [], unknownOnly: [] });
  });

  it('names a registered runner without a sample, so that it fails a case instead of running none', () => {
    expect(planConformance(['pytest', 'tap', 'unittest'], samples).withoutSample).toEqual(['unittest']);
  });

  it('names a sample of a runner that is not registered', () => {
    expect(planConformance(['pytest'], samples).unregistered.map((s) => s.name)).toEqual(['tap-tape']);
  });

  it('runs only the runners `only` names, and names those it does not know', () => {
    const plan = planConformance(['pytest', 'tap', 'unittest'], samples, ['unittest', 'tapp']);
    expect(plan.samples).toEqual([]);
    expect(plan.withoutSample).toEqual(['unittest']);
    expect(plan.unknownOnly).toEqual(['tapp']);
    expect(plan.unregistered).toEqual([]);
  });
});

describe('readSamples', () => {
  const made: string[] = [];
  afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));
  const fixtures = async (files: Record<string, string>): Promise<string> => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-samples-'));
    made.push(dir);
    for (const [rel, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), text);
    }
    return dir;
  };

  it('reads each folder with a sample.json, resolving {bin} to the first candidate that exists, quoted', async () => {
    const dir = await fixtures({
      'b/sample.json': JSON.stringify({ format: 'jest', command: '{bin} --ci', bin: ['$NO_SUCH_VAR', 'bin dir/jest'] }),
      'bin dir/jest': '',
      'a/sample.json': JSON.stringify({ format: 'node-test', command: 'node --test test/' }),
      'js-runners/package.json': '{}',
    });
    const read = readSamples([dir], dir, {});
    expect(read.map((s) => [s.name, s.format, s.command])).toEqual([
      ['a', 'node-test', { bare: 'node --test test/' }],
      ['b', 'jest', { bare: `'${path.join(dir, 'bin dir/jest')}' --ci` }],
    ]);
  });

  it('says what is missing when no candidate exists or the probe fails', async () => {
    const dir = await fixtures({
      'x/sample.json': JSON.stringify({ format: 'jest', command: '{bin}', bin: ['$JEST'], missing: 'jest is missing' }),
      'y/sample.json': JSON.stringify({ format: 'cargo', command: 'cargo test', probe: ['false'] }),
    });
    expect(readSamples([dir], dir, {}).map((s) => s.command)).toEqual([{ skip: 'jest is missing' }, { skip: 'false is not installed' }]);
  });

  it('refuses a sample.json with a field it does not know, naming the file', async () => {
    const dir = await fixtures({ 'z/sample.json': JSON.stringify({ format: 'tap', command: 'x', comand: 'y' }) });
    expect(() => readSamples([dir], dir, {})).toThrow(`${path.join(dir, 'z/sample.json')}: (top): Unrecognized key: "comand"`);
  });
});
