/** One JSON payload of a response body: a whole JSON body, or the `data:` of one SSE event. */
export interface Payload {
  /** The SSE `event:` name, or null (plain JSON body, or an SSE event without a name). */
  readonly event: string | null;
  /** The parsed JSON. */
  readonly data: unknown;
  /** Where the payload came from, for problem messages: `body`, `line 12`, `item 3`. */
  readonly where: string;
}

/** The payloads of a body, the problems met reading it, and whether an SSE `[DONE]` was seen. */
export interface ReadPayloadsResult {
  readonly payloads: Payload[];
  readonly problems: string[];
  readonly sawDone: boolean;
  /**
   * Payloads that arrived whole but are not JSON. A last SSE event without its closing blank
   * line, or a JSON-array stream without its closing bracket, was cut short rather than
   * garbled: it is not counted here (see `cutShort`).
   */
  readonly malformed: number;
  /** The body stopped inside an event (SSE without the final blank line, an unclosed JSON array). */
  readonly cutShort: boolean;
}

/**
 * Reads a response body into JSON payloads without throwing. Non-streamed bodies are one JSON
 * value. Streamed bodies are SSE text (events split by blank lines, multi-line `data:` joined
 * with "\n", `[DONE]` noted and skipped); a streamed body that is a JSON array (Gemini without
 * `alt=sse`) yields one payload per item. Undecodable payloads become problems and are skipped.
 */
export function readPayloads(body: string, streamed: boolean): ReadPayloadsResult {
  const problems: string[] = [];
  const trimmed = body.trim();
  if (trimmed === '') return { payloads: [], problems: ['empty body'], sawDone: false, malformed: 0, cutShort: false };
  if (!streamed || trimmed.startsWith('[')) {
    const data = parseJson(trimmed, 'body', problems);
    const cutShort = streamed && !trimmed.endsWith(']');
    if (data === undefined) return { payloads: [], problems, sawDone: false, malformed: cutShort ? 0 : 1, cutShort };
    const items = streamed && Array.isArray(data) ? data : [data];
    const payloads = items.map((item, i) => ({ event: null, data: item as unknown, where: streamed ? `item ${i + 1}` : 'body' }));
    return { payloads, problems, sawDone: false, malformed: 0, cutShort };
  }
  return readSse(body, problems);
}

function readSse(body: string, problems: string[]): ReadPayloadsResult {
  const payloads: Payload[] = [];
  let sawDone = false;
  let malformed = 0;
  let event: string | null = null;
  let data: string[] = [];
  let startLine = 0;
  const flush = (whole: boolean): void => {
    if (data.length > 0) {
      const text = data.join('\n');
      const where = `line ${startLine}`;
      if (text.trim() === '[DONE]') sawDone = true;
      else {
        const parsed = parseJson(text, where, problems);
        if (parsed !== undefined) payloads.push({ event, data: parsed, where });
        else if (whole) malformed++;
      }
    }
    event = null;
    data = [];
  };
  const lines = body.split(/\r\n|\r|\n/);
  // the text after the last line break is not a line of its own when empty (a body ending in one newline is not an event's end)
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => {
    if (line === '') return flush(true);
    if (line.startsWith(':')) return; // SSE comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') {
      if (data.length === 0) startLine = i + 1;
      data.push(value);
    }
  });
  const cutShort = data.length > 0;
  flush(false); // a body cut without its final blank line still yields its last complete JSON
  return { payloads, problems, sawDone, malformed, cutShort };
}

function parseJson(text: string, where: string, problems: string[]): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    problems.push(`${where}: malformed JSON: ${shown}`);
    return undefined;
  }
}
