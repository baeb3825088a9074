import { SPEC_FORMS } from '../../agents/registry.js';
import { EXIT, type CliIo } from '../io.js';

const DESCRIPTIONS: Readonly<Record<(typeof SPEC_FORMS)[number], string>> = {
  gold: 'applies each order\'s reference change (must solve every admitted task)',
  noop: 'changes nothing (must fail every admitted task)',
  'patch:<file.jsonl>': 'grades changes made elsewhere: {"task","order","patch"} per line',
  'command:<shell command>': 'any program, run in the workspace with the prompt in $BAKEOFF_PROMPT_FILE',
};

/** `bakeoff agents`: the agent specs this bakeoff understands. */
export async function agentsCommand(flags: { json: boolean }, io: CliIo): Promise<number> {
  const rows = SPEC_FORMS.map((spec) => ({ spec, description: DESCRIPTIONS[spec] }));
  if (flags.json) io.stdout.write(JSON.stringify({ agents: rows }, null, 2) + '\n');
  else io.stdout.write(rows.map((r) => `${r.spec.padEnd(26)} ${r.description}`).join('\n') + '\n');
  return EXIT.ok;
}
