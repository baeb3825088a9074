import { doctor, UNKNOWN_GRACE_SEC, type Check, type LeftoversView, type SandboxMounts } from '../../api/doctor.js';
import { DOCTOR_OPTIONS, type DoctorFlags } from '../command-options.js';
import { EXIT, placeOf, type CliIo } from '../io.js';
import { requestOf } from '../option-table.js';


/** `bakeoff doctor`: what works (sandbox, toolchains, agent harnesses), what to install, and what killed bakeoffs left behind. */
export async function doctorCommand(flags: DoctorFlags, io: CliIo): Promise<number> {
  const report = await doctor({ ...placeOf(io), ...requestOf(DOCTOR_OPTIONS, flags) });
  const { sandbox, mounts, toolchains: tools, agents, leftovers, ready: sandboxOk } = report;
  if (flags.json) {
    io.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } else {
    const line = (c: Check): string => `  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(20)} ${c.detail}${!c.ok && c.fix ? `\n        → ${c.fix}` : ''}`;
    io.stdout.write(
      [
        'sandbox',
        ...sandbox.map(line),
        ...mountLines(mounts),
        'toolchains (needed by the tasks that use them)',
        ...tools.map(line),
        'agent harnesses (needed by the model agents that use them)',
        ...agents.map(line),
        ...leftoverLines(leftovers, flags),
        sandboxOk ? 'ready: bakeoff can run agents in its sandbox' : 'NOT ready: bakeoff run will refuse to run (see FAIL lines)',
      ].join('\n') + '\n',
    );
  }
  return sandboxOk ? EXIT.ok : EXIT.infra;
}

/** What every sandbox mounts read-only besides the task, with the package folders in it (a retrieval channel the task did not install). */
function mountLines(mounts: SandboxMounts): string[] {
  return [
    'read-only in every sandbox besides the task (no npm, pip or cargo download cache, no home folder; of the machine\'s packages only the test runners and package managers)',
    ...mounts.flatMap((m) => [
      `  ${m.target.padEnd(20)} ${m.what}`,
      ...m.stores.map((s) => `        ${s.kind} ${s.path}: ${s.packages} installed, ${readableText(s)}`),
    ]),
    '  and in a model agent\'s sessions only: its pinned CLI\'s install folder (agents install)',
  ];
}

/** `7 readable (pytest, pluggy …), the rest hidden`: what an agent can read of a package folder. */
function readableText(store: SandboxMounts[number]['stores'][number]): string {
  if (store.readable.length === 0) return 'all hidden';
  const names = `(${store.readable.join(', ')})`;
  return store.readable.length === store.packages ? `all readable ${names}` : `${store.readable.length} readable ${names}, the rest hidden`;
}

function leftoverLines(view: LeftoversView, flags: DoctorFlags): string[] {
  const title = `leftovers of killed bakeoffs (mounts, scratch folders, cgroups, fleet workers' staging folders${flags.results !== undefined ? `, half-written runs in ${flags.results}` : ''})`;
  if (view.items.length === 0) return [title, '  none', ...(view.resultsNote ? [`  ${view.resultsNote}`] : [])];
  const lines = view.items.map((item) => {
    const state = item.cleaned === true ? 'removed' : item.error !== undefined ? 'FAIL' : item.stale ? 'stale' : 'in use';
    return `  ${state.padEnd(7)} ${item.description}${item.error !== undefined ? `\n        → ${item.error}` : ''}`;
  });
  const stale = view.items.filter((i) => i.stale && i.cleaned !== true).length;
  const hint = flags.clean
    ? []
    : stale > 0
      ? [`  → bakeoff doctor --clean removes the ${stale} stale one${stale === 1 ? '' : 's'} (never anything a running bakeoff uses; folders without an owner file only after ${UNKNOWN_GRACE_SEC / 60} minutes)`]
      : [];
  return [title, ...lines, ...hint, ...(view.resultsNote ? [`  ${view.resultsNote}`] : [])];
}
