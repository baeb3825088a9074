import { geminiUsage } from './scripted-usage.js';
import { JSON_HEADERS, jsonReply, newId, type RenderedReply, type RenderOptions, SSE_HEADERS, sseEvent, splitText } from './rendered-reply.js';
import type { ModelReply } from './types.js';

/**
 * Encodes a reply as a Gemini generateContent answer. Streamed (`alt=sse`): a first chunk with
 * the text and a running count, then the last chunk with the function call, `finishReason`
 * and the full `usageMetadata`; without `alt=sse` the same chunks as one JSON array;
 * not streamed: one response object.
 */
export function renderGemini(reply: ModelReply, options: RenderOptions & { jsonArrayStream: boolean }): RenderedReply {
  const parts: Array<Record<string, unknown>> = [];
  if (reply.text !== null) parts.push({ text: reply.text });
  if (reply.kind === 'tool') {
    const args = typeof reply.input === 'string' ? { input: reply.input } : reply.input;
    parts.push({ functionCall: { name: reply.name, args } });
  }
  const responseId = newId('');
  const chunk = (chunkParts: Array<Record<string, unknown>>, last: boolean): Record<string, unknown> => ({
    candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...(last && { finishReason: 'STOP' }) }],
    usageMetadata: last ? geminiUsage() : { promptTokenCount: (geminiUsage().promptTokenCount as number) },
    modelVersion: options.model,
    responseId,
  });
  if (!options.streamed) return jsonReply(chunk(parts, true));
  // Two chunks, the last one carrying the finish: text (empty for a call without any) then the
  // call, or the text in two halves.
  const [first, second] = reply.kind === 'tool' ? [reply.text === null ? [{ text: '' }] : parts.slice(0, -1), parts.slice(-1)] : halves(reply.text ?? '');
  const chunks = [chunk(first, false), chunk(second, true)];
  if (options.jsonArrayStream) return { status: 200, headers: JSON_HEADERS, chunks: [JSON.stringify(chunks)] };
  return { status: 200, headers: SSE_HEADERS, chunks: chunks.map((c) => sseEvent(null, c)) };
}

function halves(text: string): [Array<Record<string, unknown>>, Array<Record<string, unknown>>] {
  const [a = '', b = ''] = splitText(text);
  return [[{ text: a }], [{ text: b }]];
}
