import { UserError } from '../../errors.js';
import { claudeCode } from './claude-code/index.js';
import { codex } from './codex/index.js';
import { geminiCli } from './gemini-cli/index.js';
import { opencode } from './opencode/index.js';
import { pi } from './pi/index.js';
import type { Harness, HarnessName } from './types.js';

export type { Harness, HarnessName, HarnessReport, HarnessSetup, HarnessTokens, SetupInput } from './types.js';

/** The coding-agent CLIs bakeoff drives, by the name used in agent specs. */
export const HARNESSES: Readonly<Record<HarnessName, Harness>> = {
  'claude-code': claudeCode,
  codex,
  pi,
  opencode,
  'gemini-cli': geminiCli,
};

/** The harness of that name; a UserError listing the known ones otherwise. */
export function harnessNamed(name: string): Harness {
  if (Object.hasOwn(HARNESSES, name)) return HARNESSES[name as HarnessName];
  throw new UserError(`harness "${name}": expected one of ${Object.keys(HARNESSES).join(', ')}`);
}
