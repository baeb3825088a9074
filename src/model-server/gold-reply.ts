import { findToolKit } from './find-tool-kit.js';
import { planGoldSteps } from './plan-gold-steps.js';
import { sampleJson } from './sample-json.js';
import type { GoldSession, ModelReply, ParsedRequest } from './types.js';

/** The answer to requests that offer no tools: title generation, routing, classifiers. */
export const SHORT_ANSWER = 'Scripted answer.';

/** The answer to a request without tools: JSON fitting its schema when it asks for JSON, else short text. */
export function shortAnswer(request: ParsedRequest): ModelReply {
  return { kind: 'text', text: request.jsonSchema === undefined ? SHORT_ANSWER : JSON.stringify(sampleJson(request.jsonSchema)) };
}

/**
 * The `gold` script, stateless: plans the session's change with the offered tools and answers
 * step number <tool calls the assistant already made>, then a final "Done: …" text. Requests
 * without tools get a short answer; without a session there is nothing to change.
 */
export function goldReply(request: ParsedRequest, session: GoldSession | null): ModelReply {
  if (request.tools.length === 0) return shortAnswer(request);
  if (session === null) return { kind: 'text', text: 'Done: no session is registered with the scripted model server, so there is nothing to change.' };
  const plan = planGoldSteps(session, findToolKit(request.tools));
  if (!plan.ok) return { kind: 'text', text: `I cannot make this change: ${plan.reason}.` };
  const step = plan.steps[request.toolCalls.length];
  if (step === undefined) return { kind: 'text', text: plan.summary };
  return { kind: 'tool', text: step.say, name: step.tool, input: step.input };
}
