import path from 'node:path';
import { UserError } from '../errors.js';
import { createCommandAgent } from './builtins/command.js';
import { gold } from './builtins/gold.js';
import { noop } from './builtins/noop.js';
import { createPatchAgent } from './builtins/patch.js';
import { createExploitAgent } from './exploits/exploit-agent.js';
import { expectedHarness } from './harnesses/index.js';
import { localFile } from './host-file.js';
import { SPEC_FORMS } from './spec-forms.js';
import type { Agent, HostFile } from './types.js';

export const builtins = { gold, noop } as const;

export { SPEC_FORMS } from './spec-forms.js';

/** Turns an agent spec from the command line into an agent. */
export async function resolveAgent(
  spec: string,
  options: { cwd: string; forbiddenRoots?: readonly string[]; suiteTasks?: ReadonlyMap<string, number>; suiteInstances?: ReadonlyMap<string, string>; hostFile?: HostFile },
): Promise<Agent> {
  if (spec in builtins) return builtins[spec as keyof typeof builtins];
  const colon = spec.indexOf(':');
  const kind = colon > 0 ? spec.slice(0, colon) : '';
  const rest = spec.slice(colon + 1);
  if (kind === 'command' && rest.trim()) return createCommandAgent(rest, options);
  if (kind === 'exploit') return createExploitAgent(rest, options.cwd);
  if (kind === 'patch' && rest.trim()) return createPatchAgent(path.resolve(options.cwd, rest), options.suiteTasks, options.suiteInstances, options.hostFile ?? localFile);
  if ((kind === 'command' || kind === 'patch') && !rest.trim()) {
    throw new UserError(`--agent ${JSON.stringify(spec)}: expected ${kind === 'command' ? 'a shell command after "command:", e.g. command:./my-agent.sh' : 'a predictions file after "patch:", e.g. patch:predictions.jsonl'}; received nothing after the colon`);
  }
  throw new UserError(
    `--agent ${JSON.stringify(spec)}: expected one of ${SPEC_FORMS.join(', ')}; ` +
      (kind ? `received an unknown harness "${kind}" (a harness is ${expectedHarness(kind)})` : 'received an unknown agent'),
  );
}
