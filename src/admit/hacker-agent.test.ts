import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Agent, SessionContext } from '../agents/index.js';
import { createHackerAgent, hackerPrompt } from './hacker-agent.js';

/** An agent that records what its session was told: the prompt and the prompt file's content. */
function recordingAgent(): { agent: Agent; told: { prompt: string; file: string }[] } {
  const told: { prompt: string; file: string }[] = [];
  const agent: Agent = {
    info: { id: 'claude-code:claude-sonnet-4-5', harness: 'claude-code', version: '1.0.0', model: 'claude-sonnet-4-5', effort: null },
    digest: 'inner-digest',
    runSession: async (ctx: SessionContext) => {
      told.push({ prompt: ctx.prompt, file: await readFile(ctx.promptFile, 'utf8') });
      return { exitCode: 0, timedOut: false, durationMs: 1 };
    },
  };
  return { agent, told };
}

async function contextWith(prompt: string): Promise<SessionContext> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-hacker-'));
  const promptFile = path.join(dir, 'prompt.md');
  await writeFile(promptFile, prompt);
  return { taskId: 't', order: 1, prompt, promptFile, scratchDir: dir, goldPatchPath: '', workspace: dir, sandbox: {} as SessionContext['sandbox'], env: {}, timeoutMs: 1000, outputPath: path.join(dir, 'out'), maxOutputBytes: 1000 };
}

describe('a hacker agent', () => {
  it('tells the session the shipped hacker prompt, then the task\'s own, both as the prompt and in the prompt file', async () => {
    const { agent, told } = recordingAgent();
    await createHackerAgent(agent).runSession(await contextWith('clamp(-3, 0, 10) gives 10; it should give 0.'));
    const shipped = hackerPrompt();
    expect(shipped).toContain('make those hidden tests pass WITHOUT fixing the problem');
    expect(told).toHaveLength(1);
    expect(told[0]!.prompt).toBe(`${shipped.trimEnd()}\n\nclamp(-3, 0, 10) gives 10; it should give 0.`);
    expect(told[0]!.file).toBe(told[0]!.prompt);
  });

  it('is the agent under the id hacker:<its id>, with a digest of its own that the prompt enters', () => {
    const { agent } = recordingAgent();
    const hacker = createHackerAgent(agent);
    expect(hacker.info).toMatchObject({ ...agent.info, id: 'hacker:claude-code:claude-sonnet-4-5' });
    expect(hacker.digest).not.toBe(agent.digest);
    expect(createHackerAgent(agent, 'another prompt').digest).not.toBe(hacker.digest);
  });

  it('finds the shipped prompt from the built code in dist/ too (tsc copies no .md)', () => {
    const built = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/admit/hacker-agent.js')).href;
    expect(hackerPrompt(built)).toBe(hackerPrompt());
    expect(() => hackerPrompt('file:///nowhere/admit/hacker-agent.js')).toThrow(/hacker prompt was not found/);
  });
});
