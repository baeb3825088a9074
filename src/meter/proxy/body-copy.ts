import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** Default cap of a kept copy: a response body larger than this is relayed but not metered. */
export const DEFAULT_COPY_CAP = 64 * 1024 * 1024;

/**
 * A capped copy of a body that is relayed chunk by chunk: `add` is O(1) per chunk (the chunks
 * are joined once, at the end), and past `cap` bytes the copy stops but `bytes` keeps counting.
 */
export class BodyCopy {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Every byte seen, kept or not. */
  bytes = 0;

  constructor(private readonly cap: number = DEFAULT_COPY_CAP) {}

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.kept + chunk.length > this.cap) return;
    this.chunks.push(chunk);
    this.kept += chunk.length;
  }

  /** The bytes kept, as they arrived (not decoded). */
  raw(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }

  /** True when bytes were dropped because of the cap. */
  get overflowed(): boolean {
    return this.bytes > this.kept;
  }

  /**
   * The copy as text, decoded per `Content-Encoding` (the proxy asks for identity, but an
   * upstream may compress anyway). Returns null and adds a problem when it cannot decode.
   */
  text(contentEncoding: string | undefined, problems: string[]): string | null {
    const raw = this.raw();
    const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
    try {
      switch (encoding) {
        case '':
        case 'identity':
          return raw.toString('utf8');
        case 'gzip':
        case 'x-gzip':
          return gunzipSync(raw).toString('utf8');
        case 'deflate':
          return inflateSync(raw).toString('utf8');
        case 'br':
          return brotliDecompressSync(raw).toString('utf8');
        default:
          problems.push(`response body has Content-Encoding ${encoding}, which the meter cannot decode`);
          return null;
      }
    } catch (error) {
      problems.push(`cannot decode the ${encoding} response body: ${(error as Error).message}`);
      return null;
    }
  }
}
