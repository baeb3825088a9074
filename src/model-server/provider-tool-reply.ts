import type { RenderedReply } from './rendered-reply.js';
import type { ParsedRequest, WireFormat } from './types.js';

const SOURCE = { url: 'https://bakeoff-closed-web.invalid/upstream-fix', title: 'The upstream fix' };

/**
 * An answer rewritten as if the provider had run a tool for it, in each wire format's own
 * words: Anthropic's `usage.server_tool_use.web_search_requests`, a Responses `web_search_call`
 * output item, a Chat Completions `url_citation` annotation, Gemini's `groundingMetadata`. The
 * rest of the answer is untouched (the harness goes on as with `gold`). Payloads are rewritten
 * where they are JSON; everything else is kept byte for byte.
 */
export function withProviderToolUse(rendered: RenderedReply, request: Pick<ParsedRequest, 'format' | 'streamed' | 'jsonArrayStream'>): RenderedReply {
  const edit = EDITS[request.format];
  if (!request.streamed) return { ...rendered, chunks: [JSON.stringify(edit(JSON.parse(rendered.chunks.join('')) as Payload, true))] };
  if (request.jsonArrayStream) {
    const items = JSON.parse(rendered.chunks.join('')) as Payload[];
    return { ...rendered, chunks: [JSON.stringify(items.map((item, i) => edit(item, i === items.length - 1)))] };
  }
  const chunks = rendered.chunks.map((chunk, i) => {
    const line = chunk.split('\n').find((l) => l.startsWith('data: '));
    if (line === undefined || line === 'data: [DONE]') return chunk;
    const edited = edit(JSON.parse(line.slice('data: '.length)) as Payload, isLastData(rendered.chunks, i));
    return chunk.replace(line, `data: ${JSON.stringify(edited)}`);
  });
  return { ...rendered, chunks };
}

type Payload = Record<string, unknown>;

/** Whether chunk `i` is the last one with a JSON payload (not `[DONE]`). */
function isLastData(chunks: readonly string[], i: number): boolean {
  return !chunks.slice(i + 1).some((c) => c.includes('data: ') && !c.includes('data: [DONE]'));
}

const EDITS: Readonly<Record<WireFormat, (payload: Payload, last: boolean) => Payload>> = {
  'anthropic-messages': (p) => {
    // message_delta carries the final usage of a stream; a whole message carries it too
    if (p.type === 'message_delta' || p.type === 'message') return { ...p, usage: { ...(p.usage as Payload), server_tool_use: { web_search_requests: 1 } } };
    return p;
  },
  'openai-responses': (p) => {
    const call = { id: 'ws_bakeoff', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'upstream fix' } };
    if (p.type === 'response.completed') return { ...p, response: { ...(p.response as Payload), output: [call, ...((p.response as { output: unknown[] }).output ?? [])] } };
    if (p.object === 'response') return { ...p, output: [call, ...((p.output as unknown[]) ?? [])] };
    return p;
  },
  'openai-chat': (p) => {
    // on the whole message, or the chunk that finishes the choice
    const annotations = [{ type: 'url_citation', url_citation: { ...SOURCE, start_index: 0, end_index: 0 } }];
    const choices = (p.choices as Payload[] | undefined) ?? [];
    return {
      ...p,
      choices: choices.map((c) => {
        if (c.message) return { ...c, message: { ...(c.message as Payload), annotations } };
        return c.finish_reason ? { ...c, delta: { ...(c.delta as Payload), annotations } } : c;
      }),
    };
  },
  'gemini-generate': (p, last) => {
    if (!last) return p;
    const grounding = { webSearchQueries: ['upstream fix'], groundingChunks: [{ web: { uri: SOURCE.url, title: SOURCE.title } }] };
    return { ...p, candidates: ((p.candidates as Payload[]) ?? []).map((c) => ({ ...c, groundingMetadata: grounding })) };
  },
};
