import { serveModel } from '../../api/model-server.js';
import type { ModelServerFlags } from '../command-options.js';
import type { CliIo } from '../io.js';


/**
 * `bakeoff model-server`: starts the scripted model server, prints its URL, then one line per
 * request until SIGINT or SIGTERM (or `options.signal`), and closes it. Exit 0.
 */
export async function modelServerCommand(flags: ModelServerFlags, io: Pick<CliIo, 'stdout' | 'cwd'>, options: { signal?: AbortSignal } = {}): Promise<number> {
  const server = await serveModel({ ...flags, cwd: io.cwd, onRequest: (line) => io.stdout.write(line + '\n') });
  io.stdout.write(`model server (script ${flags.script}) listening on ${server.url}\n`);
  await untilStopped(options.signal);
  await server.close();
  return 0;
}

function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    if (signal?.aborted) return stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop);
  });
}
