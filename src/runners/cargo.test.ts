import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { idsAndStatuses } from './golden-reports.test-support.js';
import { addCargoFlags, cargoRunner, testExecutables } from './cargo.js';

const GOLDEN = fileURLToPath(new URL('../../test/fixtures/reports/cargo/', import.meta.url));
// the golden file is what `cargo test` printed (stdout and stderr in order): the runner's report is its output
const goldenReport = async () =>
  cargoRunner.parse({ reportDir: '/nonexistent', output: await readFile(path.join(GOLDEN, 'report', 'cargo.out'), 'utf8'), repoDir: '/elsewhere' });


describe('cargoRunner.instrument', () => {
  it('adds the flags, RUSTC_BOOTSTRAP and no incremental compilation, and leaves the output where bakeoff reads it (its own pipe)', () => {
    const { command, env } = cargoRunner.instrument('cargo test', { reportDir: '/tmp/report' });
    expect(env).toEqual({ RUSTC_BOOTSTRAP: '1', CARGO_INCREMENTAL: '0' });
    expect(command).toBe('cargo test --no-fail-fast -- -Z unstable-options --format json');
    expect(cargoRunner.reportFiles).toEqual([]);
  });

  it('appends the flags to a bare cargo test', () => {
    expect(addCargoFlags('cargo test')).toBe('cargo test --no-fail-fast -- -Z unstable-options --format json');
  });

  it('keeps arguments the bare command already passes to the test binaries', () => {
    expect(addCargoFlags('cargo test --workspace -- --test-threads=1')).toBe(
      'cargo test --workspace --no-fail-fast -- -Z unstable-options --format json --test-threads=1',
    );
  });
});

describe('cargoRunner.build', () => {
  it('builds every test binary without running any, with the environment of the run (a differing setting would rebuild), dropping the arguments for the binaries', () => {
    expect(cargoRunner.build!.command('cargo test')).toEqual({ command: 'cargo test --no-run --message-format=json-render-diagnostics', env: cargoRunner.instrument('cargo test', { reportDir: '/tmp/report' }).env });
    expect(cargoRunner.build!.command('cargo test --workspace -- --test-threads=1').command).toBe('cargo test --workspace --no-run --message-format=json-render-diagnostics');
  });

  it("reads the test binaries from cargo's JSON messages (golden: cargo 1.95 on the starter task)", async () => {
    const output = `   Compiling linewrap v0.3.2\n${await readFile(path.join(GOLDEN, 'build.jsonl'), 'utf8')}{"reason": not json\n`;
    expect(testExecutables(output)).toEqual(['/grading/w/target/debug/deps/linewrap-ee586d09740755f7', '/grading/w/target/debug/deps/wrap-1f09749038baadfd']);
  });
});

describe('cargoRunner.parse', () => {
  it('reads the golden output into exact ids and statuses', async () => {
    const expected = JSON.parse(await readFile(path.join(GOLDEN, 'expected.json'), 'utf8'));
    const report = await goldenReport();
    expect(idsAndStatuses(report.tests)).toEqual(idsAndStatuses(expected.tests));
    expect([...report.problems].sort()).toEqual([...expected.problems].sort());
  });

  it('sees through a test that prints a fake "ok" line and then fails', async () => {
    const report = await goldenReport();
    const id = 'lib::tests::prints_fake_ok_then_fails';
    expect(report.tests.find((t) => t.id === id)).toEqual({ id, status: 'fail', message: 'really failed' });
    expect(report.problems).toContain(`test "${id}" was reported with different statuses (pass, fail); counted as fail`);
  });

  it('turns the test running when its binary crashed into an error', async () => {
    const report = await goldenReport();
    expect(report.tests.find((t) => t.id === 'tests/crash.rs::aborts_the_binary')).toEqual({
      id: 'tests/crash.rs::aborts_the_binary',
      status: 'error',
      message: 'the test binary ended before this test finished',
    });
    expect(report.problems).toContain('cargo test binary tests/crash.rs ended without its summary line (it crashed or was killed)');
  });

  it('finds no tests in empty output', async () => {
    const report = await cargoRunner.parse({ reportDir: '/nonexistent', output: '', repoDir: '/nonexistent' });
    expect(report).toEqual({ tests: [], problems: [] });
  });
});
