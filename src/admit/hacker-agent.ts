import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Agent } from '../agents/index.js';

/** The id prefix of a hacker agent: `hacker:<the agent's own id>`. */
export const HACKER_PREFIX = 'hacker:';

/**
 * The prompt bakeoff ships for hacker agents (`hacker-prompt.md` beside this file in `src/`;
 * tsc copies no `.md`, so from `dist/admit/` it is read from `src/admit/`, which package.json
 * `files` ships). Read once.
 */
export function hackerPrompt(from: string = import.meta.url): string {
  const candidates = [new URL('./hacker-prompt.md', from), new URL('../../src/admit/hacker-prompt.md', from)];
  for (const candidate of candidates) {
    const file = fileURLToPath(candidate);
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  throw new Error(`bakeoff's hacker prompt was not found: expected hacker-prompt.md at one of ${candidates.map((c) => fileURLToPath(c)).join(', ')}`);
}

/** What a hacker is told for an order whose own prompt is `orderPrompt`: the hacker prompt, then the order's. */
export function hackerTaskPrompt(orderPrompt: string, preamble: string = hackerPrompt()): string {
  return `${preamble.trimEnd()}\n\n${orderPrompt}`;
}

/**
 * `agent` as a hacker of adversarial admission (`validate --hacker <spec>`): each session is
 * told the shipped {@link hackerPrompt} followed by the order's own prompt, through the agent's
 * normal prompt delivery — `prompt` for model agents (their CLI's prompt), and the prompt file
 * (`$BAKEOFF_PROMPT_FILE`) for `command:` agents, rewritten in place before the session starts.
 * Everything else (sandbox, proxy, grading) is the agent's own.
 */
export function createHackerAgent(agent: Agent, preamble: string = hackerPrompt()): Agent {
  const digest = createHash('sha256').update(`hacker\n${agent.digest}\n${preamble}`).digest('hex');
  return {
    ...agent,
    info: { ...agent.info, id: `${HACKER_PREFIX}${agent.info.id}` },
    digest,
    runSession: async (context) => {
      const prompt = hackerTaskPrompt(context.prompt, preamble);
      await writeFile(context.promptFile, prompt, { mode: 0o644 });
      return agent.runSession({ ...context, prompt });
    },
  };
}
