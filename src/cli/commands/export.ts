import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportAtif, exportSwebenchPredictions } from '../../api/export-results.js';
import { exportHarbor } from '../../api/harbor.js';
import { EXPORT_PREDICTIONS_OPTIONS, type ExportAtifFlags, type ExportHarborFlags, type ExportPredictionsFlags } from '../command-options.js';
import { EXIT, type CliIo } from '../io.js';
import { requestOf } from '../option-table.js';
import { relative } from './import.js';

/** `bakeoff export harbor <suite> --out DIR`: writes the Harbor task folders and lists them. */
export async function exportHarborCommand(suite: string, flags: ExportHarborFlags, io: CliIo): Promise<number> {
  const { folders, suiteHash, locked } = await exportHarbor({ cwd: io.cwd, env: io.env, suite, out: flags.out });
  io.stdout.write(
    [
      `wrote ${folders.length} Harbor task folder${folders.length === 1 ? '' : 's'} into ${relative(io.cwd, flags.out)} (suite hash ${suiteHash})`,
      ...folders.map((f) => `  ${relative(io.cwd, f)}`),
      ...(locked ? [] : ['  no lock of this suite: tests/expected.json lists no ids (run `bakeoff validate` first to include them)']),
    ].join('\n') + '\n',
  );
  return EXIT.ok;
}

/** `bakeoff export swebench-predictions <results> [--out FILE]`: JSONL to the file or stdout; what was left out to stderr. */
export async function exportPredictionsCommand(results: string, flags: ExportPredictionsFlags, io: CliIo): Promise<number> {
  const { predictions, skipped } = await exportSwebenchPredictions({ cwd: io.cwd, env: io.env, results, ...requestOf(EXPORT_PREDICTIONS_OPTIONS, flags) });
  const text = predictions.map((p) => JSON.stringify(p)).join('\n') + (predictions.length > 0 ? '\n' : '');
  if (flags.out) {
    await writeFile(path.resolve(io.cwd, flags.out), text);
    io.stderr.write(`wrote ${predictions.length} prediction${predictions.length === 1 ? '' : 's'} to ${flags.out}\n`);
  } else io.stdout.write(text);
  const reasons = [...new Set(skipped.map((s) => s.reason))];
  for (const r of reasons) io.stderr.write(`bakeoff: left out ${skipped.filter((s) => s.reason === r).length} run(s): ${r}\n`);
  return EXIT.ok;
}

/** `bakeoff export atif <results> --out DIR`: a trajectory.json per recorded session. */
export async function exportAtifCommand(results: string, flags: ExportAtifFlags, io: CliIo): Promise<number> {
  const { trajectories, skipped } = await exportAtif({ cwd: io.cwd, env: io.env, results, out: flags.out });
  io.stdout.write(`wrote ${trajectories} ATIF trajector${trajectories === 1 ? 'y' : 'ies'} into ${relative(io.cwd, flags.out)} (<run-id>/order-<n>/trajectory.json)${skipped > 0 ? `; ${skipped} session(s) of built-in agents have no stream and were left out` : ''}\n`);
  return EXIT.ok;
}
