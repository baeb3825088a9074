import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startMeterProxy } from './proxy.js';
import { type FakeUpstream, startFakeUpstream } from './proxy-test-kit.test-support.js';
import type { MeterProxy, MeterProxyOptions } from './proxy-types.js';

/**
 * What each proxy test runs on: a fresh temp folder and fake upstream before the test, and
 * after it the proxy it started closed, the upstream closed and the folder removed. Test
 * support, left out of the build.
 */
export interface ProxyBench {
  /** The current test's temp folder. */
  readonly dir: string;
  /** The current test's fake upstream. */
  readonly upstream: FakeUpstream;
  /** Starts the proxy under test on `<dir>/p.sock` (unless `listen` says otherwise); closed after the test. */
  start(options: Omit<MeterProxyOptions, 'listen'> & Partial<Pick<MeterProxyOptions, 'listen'>>): Promise<MeterProxy>;
}

/** Registers the hooks of a {@link ProxyBench} for the tests of the calling file. */
export function useProxyBench(prefix: string): ProxyBench {
  let dir = '';
  let upstream: FakeUpstream | undefined;
  let proxy: MeterProxy | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    upstream = await startFakeUpstream();
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await upstream?.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get upstream() {
      if (upstream === undefined) throw new Error('the bench is set up before each test only');
      return upstream;
    },
    async start(options) {
      proxy = await startMeterProxy({ listen: { socket: path.join(dir, 'p.sock') }, ...options });
      return proxy;
    },
  };
}
