import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../errors.js';
import { renderJson, renderMarkdown, renderTable, summarize } from '../../report/index.js';
import { openStore } from '../../store/open-store.js';
import { EXIT, type CliIo } from '../io.js';

export const REPORT_FORMATS = ['table', 'md', 'json'] as const;

export interface ReportFlags {
  readonly format: (typeof REPORT_FORMATS)[number];
  readonly out?: string;
}

/** `bakeoff report <results>`: the leaderboard of a results folder. */
export async function reportCommand(dir: string, flags: ReportFlags, io: CliIo): Promise<number> {
  const store = openStore(path.resolve(io.cwd, dir), { create: false });
  let text: string;
  try {
    const runs = store.listRuns();
    if (runs.length === 0) throw new UserError(`${dir}: no finished runs yet`);
    const controls = [...store.controls().values()];
    const standard = (controls[0] as { runsPerTask?: number } | undefined)?.runsPerTask ?? 2;
    const view = summarize(runs, { standardRunsPerTask: standard, controls: controls.length === 1 ? controls[0] : controls });
    if (view.mixed.length > 0) {
      const what = view.mixed.map((m) => `${m.field} (${m.values.join(' vs ')})`).join('; ');
      throw new UserError(`${dir}: refusing to rank runs that differ in ${what}; report each suite or control set from its own results folder`);
    }
    text =
      flags.format === 'json' ? renderJson(view, runs) : flags.format === 'md' ? renderMarkdown(view) : renderTable(view, { color: !flags.out && io.stdout.isTTY === true });
  } finally {
    store.close();
  }
  if (flags.out) {
    await writeFile(path.resolve(io.cwd, flags.out), text.endsWith('\n') ? text : text + '\n');
    io.stderr.write(`wrote ${flags.out}\n`);
  } else {
    io.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }
  return EXIT.ok;
}
