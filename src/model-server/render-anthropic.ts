import { anthropicUsage } from './scripted-usage.js';
import { jsonReply, newId, type RenderedReply, type RenderOptions, SSE_HEADERS, sseEvent, splitText } from './rendered-reply.js';
import type { ModelReply } from './types.js';

/**
 * Encodes a reply as an Anthropic Messages answer: `message_start` (with the input usage),
 * one `content_block_*` group per block (text, then tool_use with `input_json_delta`s),
 * `message_delta` (stop reason and the final output usage), `message_stop`; or one JSON message.
 */
export function renderAnthropic(reply: ModelReply, options: RenderOptions): RenderedReply {
  const blocks = contentBlocks(reply);
  const stopReason = reply.kind === 'tool' ? 'tool_use' : 'end_turn';
  const usage = anthropicUsage();
  const message = { id: newId('msg_'), type: 'message', role: 'assistant', model: options.model };
  if (!options.streamed) {
    return jsonReply({ ...message, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
  }
  const { output_tokens: output, output_tokens_details: details, ...inputUsage } = usage;
  const chunks = [
    sseEvent('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...inputUsage, output_tokens: 1 } },
    }),
  ];
  blocks.forEach((block, index) => chunks.push(...blockEvents(block, index)));
  chunks.push(
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: output, output_tokens_details: details },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  );
  return { status: 200, headers: SSE_HEADERS, chunks };
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

function contentBlocks(reply: ModelReply): Block[] {
  if (reply.kind === 'text') return [{ type: 'text', text: reply.text }];
  const input = typeof reply.input === 'string' ? { input: reply.input } : reply.input;
  const tool: Block = { type: 'tool_use', id: newId('toolu_'), name: reply.name, input };
  return reply.text === null ? [tool] : [{ type: 'text', text: reply.text }, tool];
}

function blockEvents(block: Block, index: number): string[] {
  const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
  const deltas =
    block.type === 'text'
      ? splitText(block.text).map((text) => ({ type: 'text_delta', text }))
      : splitText(JSON.stringify(block.input)).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
  return [
    sseEvent('content_block_start', { type: 'content_block_start', index, content_block: start }),
    ...deltas.map((delta) => sseEvent('content_block_delta', { type: 'content_block_delta', index, delta })),
    sseEvent('content_block_stop', { type: 'content_block_stop', index }),
  ];
}
