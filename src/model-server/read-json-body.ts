import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const DECODERS: Readonly<Record<string, (input: Buffer) => Promise<Buffer>>> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

/** A request body that is not JSON, or is compressed in a way the server cannot read. */
export class BadBodyError extends Error {
  override readonly name = 'BadBodyError';
}

/** Reads a request body as JSON (empty: null), undoing gzip, deflate or brotli content encoding. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let raw: Buffer = Buffer.concat(chunks);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    const decode = DECODERS[encoding];
    if (decode === undefined) throw new BadBodyError(`unsupported content-encoding ${encoding}`);
    raw = await decode(raw);
  }
  const text = raw.toString('utf8');
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadBodyError(`the body is not JSON: ${(error as Error).message}`);
  }
}
