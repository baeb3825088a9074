import { responsesUsage } from './scripted-usage.js';
import { jsonReply, newId, type RenderedReply, type RenderOptions, SSE_HEADERS, sseEvent, splitText } from './rendered-reply.js';
import type { ModelReply } from './types.js';

type Item = Record<string, unknown> & { id: string; type: string };

/**
 * Encodes a reply as an OpenAI Responses answer: `response.created`, `response.in_progress`,
 * then for the one output item `response.output_item.added`, its deltas (`output_text`,
 * `function_call_arguments` or `custom_tool_call_input`), `response.output_item.done`, and
 * `response.completed` carrying the usage; or one JSON response object. A tool reply's
 * leading text is dropped: Codex takes the call alone.
 */
export function renderResponses(reply: ModelReply, options: RenderOptions): RenderedReply {
  const item = outputItem(reply);
  const created_at = Math.floor(Date.now() / 1000);
  const response = { id: newId('resp_'), object: 'response', created_at, model: options.model, error: null };
  const completed = { ...response, status: 'completed', output: [item], usage: responsesUsage() };
  if (!options.streamed) return jsonReply(completed);
  const events: Array<Record<string, unknown> & { type: string }> = [
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } },
    { type: 'response.in_progress', response: { ...response, status: 'in_progress', output: [], usage: null } },
    { type: 'response.output_item.added', output_index: 0, item: pending(item) },
    ...itemEvents(item),
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: completed },
  ];
  return { status: 200, headers: SSE_HEADERS, chunks: events.map((e, i) => sseEvent(e.type, { ...e, sequence_number: i })) };
}

function outputItem(reply: ModelReply): Item {
  if (reply.kind === 'text') {
    const content = [{ type: 'output_text', text: reply.text, annotations: [] }];
    return { id: newId('msg_'), type: 'message', status: 'completed', role: 'assistant', content };
  }
  const call_id = newId('call_');
  if (typeof reply.input === 'string') {
    return { id: newId('ctc_'), type: 'custom_tool_call', status: 'completed', call_id, name: reply.name, input: reply.input };
  }
  const args = JSON.stringify(reply.input);
  return { id: newId('fc_'), type: 'function_call', status: 'completed', arguments: args, call_id, name: reply.name };
}

/** The item as `output_item.added` shows it: in progress, its text still empty. */
function pending(item: Item): Item {
  if (item.type === 'message') return { ...item, status: 'in_progress', content: [] };
  if (item.type === 'custom_tool_call') return { ...item, status: 'in_progress', input: '' };
  return { ...item, status: 'in_progress', arguments: '' };
}

function itemEvents(item: Item): Array<Record<string, unknown> & { type: string }> {
  const at = { item_id: item.id, output_index: 0 };
  if (item.type === 'message') {
    const text = (item.content as Array<{ text: string }>)[0]?.text ?? '';
    const part = { type: 'output_text', text: '', annotations: [] };
    return [
      { type: 'response.content_part.added', ...at, content_index: 0, part },
      ...splitText(text).map((delta) => ({ type: 'response.output_text.delta', ...at, content_index: 0, delta })),
      { type: 'response.output_text.done', ...at, content_index: 0, text },
      { type: 'response.content_part.done', ...at, content_index: 0, part: { ...part, text } },
    ];
  }
  const [kind, key] = item.type === 'custom_tool_call' ? ['custom_tool_call_input', 'input'] : ['function_call_arguments', 'arguments'];
  const full = item[key] as string;
  return [
    ...splitText(full).map((delta) => ({ type: `response.${kind}.delta`, ...at, delta })),
    { type: `response.${kind}.done`, ...at, [key]: full },
  ];
}
