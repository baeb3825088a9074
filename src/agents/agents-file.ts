import { z } from 'zod';
import { InputError, type InputIssue } from '../errors.js';
import { readYamlFile } from '../util/index.js';

/** One named agent of an agents file. */
export interface NamedAgent {
  readonly name: string;
  /** `<harness>:<model>[@effort]`. */
  readonly spec: string;
  /** Extra arguments appended to the harness's command line. */
  readonly args: readonly string[];
  /** Extra (non-secret) environment variables for the harness inside the sandbox. */
  readonly env: Readonly<Record<string, string>>;
  /** `subscription`: the user's plan (bakeoff's stored login) instead of an API key. */
  readonly auth: 'api' | 'subscription';
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Names like API keys and tokens (`MAX_THINKING_TOKENS` is a setting, not a secret). */
const SECRET = /(API_?KEY|_KEY|_TOKEN|SECRET|PASSWORD)$/i;

const AgentEntry = z
  .object({
    harness: z.string().min(1),
    model: z.string().min(1),
    effort: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
    auth: z.enum(['api', 'subscription']).default('api'),
  })
  .strict();

const AgentsFile = z.object({ agents: z.record(z.string().regex(NAME, 'a name of letters, digits, ".", "_" or "-"'), AgentEntry) }).strict();

/**
 * Reads an agents file (`--agents agents.yaml`): named agents with settings, e.g.
 *
 *     agents:
 *       sonnet-high: { harness: claude-code, model: claude-sonnet-4-5, effort: high }
 *       gpt-low:     { harness: codex, model: gpt-5.5, effort: lowest, args: ["-c", "model_verbosity=\"low\""] }
 *       gpt-plan:    { harness: codex, model: gpt-5.5, effort: lowest, auth: subscription }
 *
 * The name is the agent's id in results and reports. Secrets do not belong here (the sandbox
 * never sees a real key; the metering proxy injects it), so variables named like keys are refused.
 */
export async function readAgentsFile(file: string): Promise<NamedAgent[]> {
  const issues: InputIssue[] = [];
  const parsed = await readYamlFile(file, AgentsFile, issues, {
    expected: 'YAML',
    knownKeys: (p) => (p.length === 2 ? Object.keys(AgentEntry.shape) : p.length === 0 ? ['agents'] : []),
  });
  if (!parsed) throw new InputError(issues);
  const agents: NamedAgent[] = [];
  for (const [name, entry] of Object.entries(parsed.agents)) {
    const secret = Object.keys(entry.env).find((k) => SECRET.test(k));
    if (secret) {
      throw new InputError([{ file, field: `agents.${name}.env.${secret}`, expected: 'no secrets (the proxy injects API keys on the host)', received: `a variable named ${secret}` }]);
    }
    agents.push({ name, spec: `${entry.harness}:${entry.model}${entry.effort ? `@${entry.effort}` : ''}`, args: entry.args, env: entry.env, auth: entry.auth });
  }
  if (agents.length === 0) throw new InputError([{ file, field: 'agents', expected: 'at least one agent', received: 'none' }]);
  return agents;
}
