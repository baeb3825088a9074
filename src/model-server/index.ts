/**
 * The scripted model server: answers the model APIs the agent CLIs call (Anthropic Messages,
 * OpenAI Responses and Chat Completions, Gemini) from a script, offline, so tests and dry runs
 * drive the real CLIs without keys. `gold` makes a session's reference change with each
 * harness's own tools; `web` reaches for the web first (the harness's web tools and a
 * closed-web attack on the proxy), `provider-tool` answers as if the provider had run a tool;
 * `500`, `429`, `hang`, `malformed`, `truncated` and `disconnect` inject
 * faults; a replay file answers a fixed sequence.
 */
export { SCRIPTED_COUNTS, scriptedUsage } from './scripted-usage.js';
export { DEFAULT_SESSION, startModelServer } from './start-model-server.js';
export type {
  FileEdit,
  GoldSession,
  ModelServer,
  ModelServerOptions,
  ParsedRequest,
  ScriptName,
  ServedRequest,
  SessionResolver,
} from './types.js';
export { SESSION_HEADER } from './types.js';
export { FAULT_SCRIPTS } from './fault-reply.js';
export { GOLD_SCRIPTS } from './load-script.js';
export { requestLog, type RequestLog } from './request-log.js';
export { ATTACK_URL_HOST, attackItems, closedWebAttack, closedWebAttackItems, type AttackRequest } from './closed-web-attack.js';
