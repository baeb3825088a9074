import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-table.js';
import { addOptions, bool, list, negationOf, parsed, requestOf, text } from './option-table.js';
import { parsePositiveInt } from './io.js';

const NAMED = { sandboxes: ['bwrap', 'unsafe-no-sandbox'], 'report-formats': ['vitest', 'pytest'] };

describe('the option tables', () => {
  it('key every option by the name commander gives its value, so the typed flags are what the command receives', () => {
    const wrong: string[] = [];
    for (const entry of COMMANDS) {
      for (const [key, spec] of Object.entries(entry.options)) {
        const option = new Option(spec.flags, spec.help);
        const attribute = option.attributeName();
        // the --no- form of an option of the same table writes into that option's value
        const paired = option.negate && key !== attribute && key === `no${attribute[0]!.toUpperCase()}${attribute.slice(1)}` && attribute in entry.options;
        if (key !== attribute && !paired) wrong.push(`${entry.usage}: ${key} is commander's ${attribute}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('hand a command exactly what its table declares: defaults, repeats, parsed values, a --no- pair', async () => {
    const table = {
      json: bool('--json', 'machine-readable'),
      task: list('--task <id>', 'repeatable', { request: 'tasks' }),
      runs: parsed('--runs <n>', 'how many', parsePositiveInt, { request: 'runs' }),
      out: text('--out <dir>', 'where', { request: 'out' }),
      adversarial: { flags: '--adversarial', help: 'on' },
      noAdversarial: negationOf('--no-adversarial', 'off'),
    };
    const seen: unknown[] = [];
    const program = new Command('t').exitOverride();
    addOptions(program.command('go'), table, NAMED).action((flags) => void seen.push(flags));
    await program.parseAsync(['go', '--task', 'a', '--task', 'b', '--runs', '3', '--no-adversarial'], { from: 'user' });
    expect(seen).toEqual([{ json: false, task: ['a', 'b'], runs: 3, adversarial: false }]);
    expect(requestOf(table, seen[0] as never)).toEqual({ tasks: ['a', 'b'], runs: 3 });
    await expect(program.parseAsync(['go', '--runs', '0'], { from: 'user' })).rejects.toThrow(/expected a whole number >= 1, received "0"/);
  });

  it('fill a request field only with a value: nothing for an option not given, an empty text or an empty repeat', () => {
    const table = { task: list('--task <id>', 'r', { request: 'tasks' }), out: text('--out <dir>', 'w', { request: 'out' }), json: bool('--json', 'j', { request: 'json' }) };
    expect(requestOf(table, { task: [], out: '', json: false })).toEqual({ json: false });
    expect(requestOf(table, { task: ['x'], json: true })).toEqual({ tasks: ['x'], json: true });
  });
});
