import path from 'node:path';
import type { TestRunner } from '../types.js';
import { parseCargoOutput } from './parse-cargo-output.js';
import { readReportFile } from './read-report-file.js';
import { quoteShellArg } from '../../util/shell-quote.js';

/** stdout and stderr of the whole `cargo test`, in order (see `parseCargoOutput`). */
const REPORT_FILE = 'cargo.out';

/** Options for cargo itself, and for the test binaries (libtest's JSON output). */
const CARGO_FLAGS = '--no-fail-fast';
const LIBTEST_FLAGS = '-Z unstable-options --format json';

/**
 * `cargo test` with every test binary run (`--no-fail-fast`) and libtest's JSON output, which
 * stable Rust allows with `RUSTC_BOOTSTRAP=1`. The JSON does not name the binary, so stdout and
 * stderr (where cargo names each binary) go together, in order, to `<reportDir>/cargo.out`;
 * the output log therefore stays empty. Ids are `<binary>::<test path>`, e.g.
 * `lib::tests::parses` or `tests/api.rs::get_ok`.
 */
export const cargoRunner: TestRunner = {
  format: 'cargo',
  instrument(command, { reportDir }) {
    return {
      command: `( ${addCargoFlags(command)} ) > ${quoteShellArg(path.join(reportDir, REPORT_FILE))} 2>&1`,
      env: { RUSTC_BOOTSTRAP: '1' },
    };
  },
  async parse({ reportDir }) {
    const text = await readReportFile(path.join(reportDir, REPORT_FILE));
    if (text === undefined) return { tests: [], problems: [`cargo output ${REPORT_FILE} is missing`] };
    return parseCargoOutput(text);
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
