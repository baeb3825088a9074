import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFleetSeal, openTexts, sealText } from './seal.js';

const secret = Buffer.from('a'.repeat(64));
const seal = createFleetSeal(secret);

describe('fleet seals', () => {
  it('opens what the same secret sealed, as the very value', () => {
    const job = { runId: 'r1', agentOptions: { upstream: 'vendor' }, n: [1, 2] };
    expect(seal.open('job', seal.seal('job', job))).toEqual({ ok: true, value: job });
  });

  it('refuses, saying why, what is unsigned, changed after signing, signed with another secret or for another kind', () => {
    const sealed = seal.seal('job', { runId: 'r1', agentOptions: { upstream: 'vendor' } });
    expect(seal.open('job', { runId: 'r1' })).toMatchObject({ ok: false, why: expect.stringMatching(/^unsigned: it carries no signature of this fleet/) });
    expect(seal.open('job', null)).toMatchObject({ ok: false, why: expect.stringMatching(/^unsigned/) });
    const changed = { ...sealed, payload: sealed.payload.replace('vendor', 'http://capture.example') };
    expect(seal.open('job', changed)).toMatchObject({ ok: false, why: expect.stringMatching(/signature does not match: changed after it was signed, or signed with another fleet secret/) });
    const other = createFleetSeal(Buffer.from('b'.repeat(64))).seal('job', { runId: 'r1' });
    expect(seal.open('job', other)).toMatchObject({ ok: false, why: expect.stringMatching(/signature does not match/) });
    // a worker's sealed result never passes for a job, even with the kind field rewritten
    const result = seal.seal('result', { runId: 'r1' });
    expect(seal.open('job', result)).toMatchObject({ ok: false, why: 'signed as a result, not as a job' });
    expect(seal.open('job', { ...result, kind: 'job' })).toMatchObject({ ok: false, why: expect.stringMatching(/signature does not match/) });
    // a digest an attacker can compute without the secret is not a signature
    expect(seal.open('job', { ...sealed, sig: createHash('sha256').update(sealed.payload).digest('hex') })).toMatchObject({ ok: false });
  });

  it('keeps the sealed entries of a list and counts the rest', () => {
    const texts = [sealText(seal, 'attempt', { worker: 'w1' }), 'not json', JSON.stringify({ worker: 'forged' }), sealText(seal, 'spent', { worker: 'w2' }), sealText(seal, 'attempt', { worker: 'w3' })];
    expect(openTexts(seal, 'attempt', texts)).toEqual({ values: [{ worker: 'w1' }, { worker: 'w3' }], ignored: 3 });
  });
});
