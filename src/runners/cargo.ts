import type { TestRunner } from './types.js';
import { parseCargoOutput } from './parse-cargo-output.js';
import { rustTripwires } from './tripwire-sources.js';

/** Options for cargo itself, and for the test binaries (libtest's JSON output). */
const CARGO_FLAGS = '--no-fail-fast';
const LIBTEST_FLAGS = '-Z unstable-options --format json';

/**
 * `cargo test` with every test binary run (`--no-fail-fast`) and libtest's JSON output, which
 * stable Rust allows with `RUSTC_BOOTSTRAP=1`. The JSON does not name the binary, so the report
 * is the command's own output (stdout and stderr in order, where cargo names each binary),
 * which flows through a pipe to bakeoff as it is printed: nothing in the sandbox can rewrite
 * what was already printed. Ids are `<binary>::<test path>`, e.g. `lib::tests::parses` or
 * `tests/api.rs::get_ok`; doctests `doc::src/lib.rs - item` (no line number: see stableDoctestIds). Build scripts, `.cargo/` config, a toolchain file and any change to
 * Cargo.toml other than package metadata are protected (see docs/runner-configuration.md).
 */
export const cargoRunner: TestRunner = {
  format: 'cargo',
  testFiles: ['tests/*.rs', 'tests/*/main.rs'],
  configFiles: ['**/build.rs', '**/.cargo/**', '**/rust-toolchain', '**/rust-toolchain.toml'],
  reportFiles: [],
  reportIsOutput: true,
  testNamePrefix: '',
  tripwireSource: rustTripwires,
  // integration test files only: a test in src/ belongs to the `lib` binary (and is no hidden file)
  testIds: (file, path, name) => (/^tests\/([^/]+\.rs|[^/]+\/main\.rs)$/.test(file) ? [`${file}::${[...path, name].join('::')}`] : []),
  instrument(command) {
    return { command: addCargoFlags(command), env: { RUSTC_BOOTSTRAP: '1' } };
  },
  async parse({ output }) {
    return parseCargoOutput(output);
  },
};

/**
 * Adds the flags to a bare command. When it already passes arguments to the test binaries
 * (`cargo test -- --test-threads=1`), cargo's flag goes before its `--` and libtest's after it.
 */
export function addCargoFlags(command: string): string {
  const separator = /(^|\s)--(\s|$)/.exec(command);
  if (separator === null) return `${command} ${CARGO_FLAGS} -- ${LIBTEST_FLAGS}`;
  const at = separator.index + separator[1]!.length;
  const rest = command.slice(at + 2).trimStart();
  return `${command.slice(0, at).trimEnd()} ${CARGO_FLAGS} -- ${LIBTEST_FLAGS}${rest === '' ? '' : ` ${rest}`}`;
}
