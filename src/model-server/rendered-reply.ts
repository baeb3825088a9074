import { randomBytes } from 'node:crypto';

/** A rendered HTTP answer: status, headers and the body in the chunks it is written in. */
export interface RenderedReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Body pieces, written in order; one SSE event each for streams. */
  readonly chunks: readonly string[];
  /** Destroy the connection after the chunks instead of ending the response (a broken stream). */
  readonly disconnect?: boolean;
}

/** Options every wire renderer takes. */
export interface RenderOptions {
  /** The model to name in the answer. */
  readonly model: string;
  readonly streamed: boolean;
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } as const;
export const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** One SSE event: an optional `event:` line, one `data:` line, a blank line. */
export function sseEvent(event: string | null, data: unknown): string {
  const json = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === null ? '' : `event: ${event}\n`}data: ${json}\n\n`;
}

/** A fresh id in the vendor's style: `msg_…`, `toolu_…`, `call_…` followed by 16 hex digits. */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(8).toString('hex')}`;
}

/** A JSON answer. */
export function jsonReply(body: unknown, status = 200): RenderedReply {
  return { status, headers: JSON_HEADERS, chunks: [JSON.stringify(body)] };
}

/** Splits `text` into at most `parts` pieces, to stream arguments the way real APIs do. */
export function splitText(text: string, parts = 2): string[] {
  if (text.length < 2 || parts < 2) return [text];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
