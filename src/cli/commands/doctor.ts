import { HARNESS_NAMES, harnessNamed, installDirOf, installedVersion } from '../../agents/index.js';
import { checkSandbox, type Check } from '../../sandbox/index.js';
import { probeVersion } from '../../util/index.js';
import { EXIT, type CliIo } from '../io.js';

const TOOLCHAINS: readonly { name: string; cmd: string; args: string[]; fix: string }[] = [
  { name: 'git', cmd: 'git', args: ['--version'], fix: 'apt-get install git' },
  { name: 'faketime (validate)', cmd: 'faketime', args: ['--version'], fix: 'apt-get install faketime' },
  { name: 'node', cmd: 'node', args: ['--version'], fix: 'install Node.js 20+' },
  { name: 'npm', cmd: 'npm', args: ['--version'], fix: 'install npm' },
  { name: 'python3', cmd: 'python3', args: ['--version'], fix: 'apt-get install python3' },
  { name: 'pytest', cmd: 'python3', args: ['-m', 'pytest', '--version'], fix: 'pip install pytest' },
  { name: 'cargo', cmd: 'cargo', args: ['--version'], fix: 'install Rust with rustup' },
  { name: 'strace (--trace-network)', cmd: 'strace', args: ['-V'], fix: 'apt-get install strace' },
];

/** `bakeoff doctor`: what works (sandbox, toolchains, agent harnesses) and what to install. */
export async function doctorCommand(flags: { json: boolean }, io: CliIo): Promise<number> {
  const sandbox = await checkSandbox();
  const tools: Check[] = await Promise.all(
    TOOLCHAINS.map(async (t) => {
      const version = await probeVersion(t.cmd, t.args);
      return version === null ? { name: t.name, ok: false, detail: 'not found', fix: t.fix } : { name: t.name, ok: true, detail: version };
    }),
  );
  const agents: Check[] = await Promise.all(
    HARNESS_NAMES.map(async (name) => {
      const harness = harnessNamed(name);
      const version = await installedVersion(harness, io.env);
      const pinned = `${harness.npmPackage}@${harness.version}`;
      return version === null
        ? { name, ok: false, detail: `${pinned} not installed (only needed for ${name}:<model> agents)`, fix: `npx bakeoff agents install ${name}` }
        : { name, ok: true, detail: `${version} (pinned ${harness.version}) in ${installDirOf(harness, io.env)}` };
    }),
  );
  const sandboxOk = sandbox.every((c) => c.ok);
  if (flags.json) {
    io.stdout.write(JSON.stringify({ sandbox, toolchains: tools, agents, ready: sandboxOk }, null, 2) + '\n');
  } else {
    const line = (c: Check): string => `  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(20)} ${c.detail}${!c.ok && c.fix ? `\n        → ${c.fix}` : ''}`;
    io.stdout.write(
      [
        'sandbox',
        ...sandbox.map(line),
        'toolchains (needed by the tasks that use them)',
        ...tools.map(line),
        'agent harnesses (needed by the model agents that use them)',
        ...agents.map(line),
        sandboxOk ? 'ready: bakeoff can run agents in its sandbox' : 'NOT ready: bakeoff run will refuse to run (see FAIL lines)',
      ].join('\n') + '\n',
    );
  }
  return sandboxOk ? EXIT.ok : EXIT.infra;
}
