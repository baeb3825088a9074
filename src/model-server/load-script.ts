import { FAULT_SCRIPTS, type FaultScript, faultReply } from './fault-reply.js';
import { goldReply } from './gold-reply.js';
import { loadRecordedSession } from './load-recorded-session.js';
import { loadReplayScript } from './load-replay-script.js';
import type { GoldSession, ParsedRequest, ScriptName, ScriptReply } from './types.js';
import { webReply } from './web-reply.js';

/** The built-in scripts that make each session's reference change (they need its gold session). */
export const GOLD_SCRIPTS = ['gold', 'web', 'provider-tool'] as const;

/** Decides the answer to each generation request. */
export interface Script {
  reply(request: ParsedRequest, context: { readonly session: GoldSession | null; readonly token: string | null }): ScriptReply;
}

/** The script a name stands for: `gold`, `web`, `provider-tool`, a fault script, a recorded session (`.jsonl`), or else the path of a replay file. */
export async function loadScript(name: ScriptName): Promise<Script> {
  if (name === 'gold') return { reply: (request, { session }) => goldReply(request, session) };
  if (name === 'web') return { reply: (request, { session }) => webReply(request, session) };
  if (name === 'provider-tool') return { reply: (request, { session }) => ({ kind: 'provider-tool', reply: goldReply(request, session) }) };
  if ((FAULT_SCRIPTS as readonly string[]).includes(name)) {
    return { reply: (request) => faultReply(name as FaultScript, request.format) };
  }
  if (name.endsWith('.jsonl')) {
    const recorded = await loadRecordedSession(name);
    return { reply: (_request, { token }) => recorded.reply(token) };
  }
  const replay = await loadReplayScript(name);
  return { reply: (request, { token }) => replay.reply(request, token) };
}
