import type { TestRunner } from './types.js';
import { parseCargoOutput } from './parse-cargo-output.js';
import { rustTripwires } from './tripwire-sources.js';
import { TOOLCHAIN_FILES } from './toolchain-files.js';
import { CARGO_NOT_INCREMENTAL } from '../util/index.js';

/** Options for cargo itself, and for the test binaries (libtest's JSON output). */
const CARGO_FLAGS = '--no-fail-fast';
const LIBTEST_FLAGS = '-Z unstable-options --format json';
/** The build before the run: every test binary compiled, none run, each artifact named on stdout. */
const BUILD_FLAGS = '--no-run --message-format=json-render-diagnostics';

/**
 * `cargo test` with every test binary run (`--no-fail-fast`) and libtest's JSON output, which
 * stable Rust allows with `RUSTC_BOOTSTRAP=1`; without incremental compilation, as the setup
 * built (`CARGO_NOT_INCREMENTAL`). The JSON does not name the binary, so the report
 * is the command's own output (stdout and stderr in order, where cargo names each binary),
 * which flows through a pipe to bakeoff as it is printed: nothing in the sandbox can rewrite
 * what was already printed. Ids are `<binary>::<test path>`, e.g. `lib::tests::parses` or
 * `tests/api.rs::get_ok`; doctests `doc::src/lib.rs - item` (no line number: see stableDoctestIds). Build scripts, `.cargo/` config, a toolchain file and any change to
 * Cargo.toml other than package metadata are protected (see docs/runner-configuration.md).
 */
export const cargoRunner: TestRunner = {
  format: 'cargo',
  testFiles: ['tests/*.rs', 'tests/*/main.rs'],
  configFiles: ['**/build.rs', '**/.cargo/**', ...TOOLCHAIN_FILES],
  reportFiles: [],
  reportIsOutput: true,
  testNamePrefix: '',
  tripwireSource: rustTripwires,
  // integration test files only: a test in src/ belongs to the `lib` binary (and is no hidden file)
  testIds: (file, path, name) => (/^tests\/([^/]+\.rs|[^/]+\/main\.rs)$/.test(file) ? [`${file}::${[...path, name].join('::')}`] : []),
  // the test binaries are built first and shown read-only to the run: a library's own unit tests
  // (which libtest runs before the integration tests) cannot replace a hidden test's binary
  build: {
    command: (command) => ({ command: addCargoFlags(command, BUILD_FLAGS, ''), env: { RUSTC_BOOTSTRAP: '1', ...CARGO_NOT_INCREMENTAL } }),
    builtFiles: testExecutables,
  },
  instrument(command) {
    return { command: addCargoFlags(command), env: { RUSTC_BOOTSTRAP: '1', ...CARGO_NOT_INCREMENTAL } };
  },
  async parse({ output }) {
    return parseCargoOutput(output);
  },
};

/**
 * Adds the flags to a bare command. When it already passes arguments to the test binaries
 * (`cargo test -- --test-threads=1`), cargo's flags go before its `--` and libtest's after it.
 * With no libtest flags (the build), the arguments for the test binaries are dropped.
 */
export function addCargoFlags(command: string, cargoFlags = CARGO_FLAGS, libtestFlags = LIBTEST_FLAGS): string {
  const separator = /(^|\s)--(\s|$)/.exec(command);
  const tail = (rest: string): string => (libtestFlags === '' ? '' : ` -- ${libtestFlags}${rest === '' ? '' : ` ${rest}`}`);
  if (separator === null) return `${command} ${cargoFlags}${tail('')}`;
  const at = separator.index + separator[1]!.length;
  return `${command.slice(0, at).trimEnd()} ${cargoFlags}${tail(command.slice(at + 2).trimStart())}`;
}

/**
 * The test binaries a `cargo test --no-run --message-format=json-render-diagnostics` built: the
 * absolute `executable` of every compiler-artifact line of a test profile.
 */
export function testExecutables(output: string): string[] {
  const out = new Set<string>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{') || !line.includes('"compiler-artifact"')) continue;
    try {
      const message = JSON.parse(line) as { reason?: unknown; executable?: unknown; profile?: { test?: unknown } };
      if (message.reason === 'compiler-artifact' && typeof message.executable === 'string' && message.profile?.test === true) out.add(message.executable);
    } catch {
      // a line of the build's own output that looks like JSON: not cargo's
    }
  }
  return [...out].sort();
}
