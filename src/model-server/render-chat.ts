import { chatUsage } from './scripted-usage.js';
import { jsonReply, newId, type RenderedReply, type RenderOptions, SSE_HEADERS, sseEvent, splitText } from './rendered-reply.js';
import type { ModelReply } from './types.js';

/**
 * Encodes a reply as an OpenAI Chat Completions answer: `chat.completion.chunk`s (role, text
 * deltas, one tool call with its argument deltas), a `finish_reason` chunk, the usage chunk
 * with `choices: []` when `stream_options.include_usage` asked for it, then `data: [DONE]`;
 * or one `chat.completion` JSON object.
 */
export function renderChat(reply: ModelReply, options: RenderOptions & { includeUsage: boolean }): RenderedReply {
  const base = { id: newId('chatcmpl-'), created: Math.floor(Date.now() / 1000), model: options.model };
  const text = reply.text;
  const call =
    reply.kind === 'tool'
      ? { id: newId('call_'), type: 'function', name: reply.name, arguments: JSON.stringify(toArgs(reply.input)) }
      : null;
  const finish_reason = call === null ? 'stop' : 'tool_calls';
  if (!options.streamed) {
    const tool_calls = call === null ? undefined : [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }];
    const message = { role: 'assistant', content: text, ...(tool_calls && { tool_calls }) };
    return jsonReply({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason }], usage: chatUsage() });
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    sseEvent(null, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  for (const piece of text === null ? [] : splitText(text)) chunks.push(chunk({ content: piece }));
  if (call !== null) {
    const start = { index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    chunks.push(chunk({ tool_calls: [start] }));
    for (const piece of splitText(call.arguments)) chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  chunks.push(chunk({}, finish_reason));
  if (options.includeUsage) chunks.push(sseEvent(null, { ...base, object: 'chat.completion.chunk', choices: [], usage: chatUsage() }));
  chunks.push(sseEvent(null, '[DONE]'));
  return { status: 200, headers: SSE_HEADERS, chunks };
}

function toArgs(input: Readonly<Record<string, unknown>> | string): Readonly<Record<string, unknown>> {
  return typeof input === 'string' ? { input } : input;
}
