import { describe, expect, it } from 'vitest';
import { classifyFailure, type RequestEnding } from './classify-failure.js';

const usage = { inputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0, model: null, costUsd: null };
const ending = (e: Partial<RequestEnding>): RequestEnding => ({
  transportFailure: null, status: 200, format: 'openai-chat', usage, problems: [], missingFinalEvent: null, malformedPayloads: 0, ...e,
});
const api = 'line 3: API error: overloaded_error: Overloaded';

describe('classifyFailure', () => {
  it.each([
    [ending({}), null],
    [ending({ status: 429, usage: null }), 'rate-limited'],
    [ending({ status: 503, usage: null }), 'server-error'],
    [ending({ status: 401 }), 'auth'],
    [ending({ status: 403 }), 'auth'],
    [ending({ status: 404 }), 'client-error'],
    [ending({ usage: null, problems: ['no usage in the body'] }), 'malformed'],
    [ending({ usage: null, problems: ['line 3: API error: overloaded_error: Overloaded'] }), 'server-error'],
    [ending({ format: null, usage: null }), null],
    [ending({ status: 304, usage: null }), null],
    [ending({ transportFailure: 'hang', status: 200 }), 'hang'],
    [ending({ status: null, usage: null }), 'unreachable'],
    // a stream without its final event did not arrive whole, even with its usage counted
    [ending({ missingFinalEvent: 'message_stop' }), 'truncated'],
    [ending({ usage: null, missingFinalEvent: 'message_stop' }), 'truncated'],
    // a whole payload that is not JSON is garbage, not a cut; an error event is the provider's
    [ending({ usage: null, missingFinalEvent: 'message_stop', malformedPayloads: 1 }), 'malformed'],
    [ending({ usage: null, missingFinalEvent: 'message_stop', problems: [api] }), 'server-error'],
    [ending({ problems: [api] }), 'server-error'],
    // a whole stream with its usage and one unreadable line is counted as before
    [ending({ malformedPayloads: 1 }), null],
    // the connection broke after the headers: truncated, unless the final event and usage had come
    [ending({ transportFailure: 'broken', usage: null, missingFinalEvent: 'message_stop' }), 'truncated'],
    [ending({ transportFailure: 'broken', usage: null, malformedPayloads: 1 }), 'truncated'],
    [ending({ transportFailure: 'broken' }), null],
    [ending({ transportFailure: 'broken', format: null, usage: null }), 'truncated'],
  ])('%j → %s', (e, failure) => {
    expect(classifyFailure(e)).toBe(failure);
  });
});
