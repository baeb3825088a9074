import { renderAnthropic } from './render-anthropic.js';
import { renderChat } from './render-chat.js';
import { renderGemini } from './render-gemini.js';
import { renderResponses } from './render-responses.js';
import type { RenderedReply } from './rendered-reply.js';
import type { ModelReply, ParsedRequest } from './types.js';

/** The model named in answers to requests that name none. */
export const DEFAULT_MODEL = 'scripted';

/** Encodes a text or tool reply in the wire format of the request, streamed or not as it asked. */
export function renderReply(reply: ModelReply, request: ParsedRequest): RenderedReply {
  const options = { model: request.model ?? DEFAULT_MODEL, streamed: request.streamed };
  switch (request.format) {
    case 'anthropic-messages':
      return renderAnthropic(reply, options);
    case 'openai-responses':
      return renderResponses(reply, options);
    case 'openai-chat':
      return renderChat(reply, { ...options, includeUsage: request.includeUsage });
    case 'gemini-generate':
      return renderGemini(reply, { ...options, jsonArrayStream: request.jsonArrayStream });
  }
}
