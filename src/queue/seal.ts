import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What crosses the fleet's Redis is sealed: signed with HMAC-SHA256 under the fleet's secret,
 * which lives on the coordinator and every worker and never in Redis (decision 014). Whoever can
 * write to Redis without the secret can delete or delay work, never make a worker run a job the
 * coordinator did not sign, nor make the coordinator store a result no worker signed.
 *
 * A sealed value is the exact JSON text that was signed (`payload`) beside its signature, like a
 * JWS: nothing is re-serialized before checking, so no canonical form is needed. The kind is
 * signed too, so a signed result can never pass for a job.
 */

/** What a seal is for: a run job, a worker's result, an attempt's start, one metered request's spend. */
export type SealKind = 'job' | 'result' | 'attempt' | 'spent';

export interface Sealed {
  readonly sealed: 1;
  readonly kind: SealKind;
  /** The value, as the JSON text that was signed. */
  readonly payload: string;
  /** Hex HMAC-SHA256 of `bakeoff-fleet/1`, the kind and the payload, under the fleet secret. */
  readonly sig: string;
}

/** Why a sealed value was refused, as a worker or the coordinator says it. */
export type Unsealed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: string };

export interface FleetSeal {
  seal(kind: SealKind, value: unknown): Sealed;
  /** The value, when `data` is a seal of `kind` made with this secret; else why not. */
  open<T>(kind: SealKind, data: unknown): Unsealed<T>;
}

const DOMAIN = 'bakeoff-fleet/1';

export function createFleetSeal(secret: Buffer): FleetSeal {
  const sign = (kind: SealKind, payload: string): Buffer => createHmac('sha256', secret).update(`${DOMAIN}\n${kind}\n`).update(payload).digest();
  return {
    seal: (kind, value) => {
      const payload = JSON.stringify(value);
      return { sealed: 1, kind, payload, sig: sign(kind, payload).toString('hex') };
    },
    open: <T>(kind: SealKind, data: unknown): Unsealed<T> => {
      const s = data as Partial<Sealed> | null;
      if (s === null || typeof s !== 'object' || typeof s.payload !== 'string' || typeof s.sig !== 'string') {
        return { ok: false, why: `unsigned: it carries no signature of this fleet (not sealed by a ${kind === 'job' ? 'coordinator' : 'worker'} holding the fleet secret)` };
      }
      if (s.kind !== kind) return { ok: false, why: `signed as a ${String(s.kind)}, not as a ${kind}` };
      const given = Buffer.from(s.sig, 'hex');
      const expected = sign(kind, s.payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return { ok: false, why: 'its signature does not match: changed after it was signed, or signed with another fleet secret' };
      }
      try {
        return { ok: true, value: JSON.parse(s.payload) as T };
      } catch {
        return { ok: false, why: 'signed, but its payload is not JSON' };
      }
    },
  };
}

/** A seal that adds up the milliseconds its calls take (what the fleet's signing costs a run). */
export function timedSeal(seal: FleetSeal): FleetSeal & { readonly ms: () => number } {
  let ms = 0;
  const timed = <T>(call: () => T): T => {
    const t0 = performance.now();
    try {
      return call();
    } finally {
      ms += performance.now() - t0;
    }
  };
  return {
    seal: (kind, value) => timed(() => seal.seal(kind, value)),
    open: (kind, data) => timed(() => seal.open(kind, data)),
    ms: () => ms,
  };
}

/** A sealed entry of a Redis list (attempt starts, spent requests) as the text pushed. */
export function sealText(seal: FleetSeal, kind: SealKind, value: unknown): string {
  return JSON.stringify(seal.seal(kind, value));
}

/** The entries of a Redis list of sealed texts that open; `ignored` counts the rest (unsigned, forged, garbled). */
export function openTexts<T>(seal: FleetSeal, kind: SealKind, texts: readonly string[]): { readonly values: T[]; readonly ignored: number } {
  const values: T[] = [];
  let ignored = 0;
  for (const text of texts) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      ignored++;
      continue;
    }
    const opened = seal.open<T>(kind, data);
    if (opened.ok) values.push(opened.value);
    else ignored++;
  }
  return { values, ignored };
}
