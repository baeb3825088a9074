import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../../util/index.js';
import { UserError } from '../../errors.js';
import type { Upstream } from '../../meter/proxy/proxy-types.js';
import { scriptedUpstream, upstreamFor } from '../../meter/proxy/upstream.js';
import type { WireFormat } from '../../meter/types.js';
import type { GoldSession } from '../../model-server/index.js';
import type { HostFile } from '../types.js';
import { preflightUpstream } from './preflight-upstream.js';

/** The model API every harness session of a bake talks to, through its metering proxy. */
export interface ModelUpstream {
  /** Recorded with runs and part of model agents' digests: `vendor`, `openrouter`, a base URL, `scripted:<script>`. */
  readonly name: string;
  readonly upstream: Upstream;
  /** True for bakeoff's own scripted model: the proxy tells it which session each request belongs to. */
  readonly scripted: boolean;
  /** Set for `scripted:gold`: tells the scripted model which change a session must make (and forgets it after). */
  readonly gold?: { register(token: string, session: GoldSession): void; forget(token: string): void };
  close(): Promise<void>;
}

/**
 * Opens the upstream `--upstream` names. `scripted:<script>` starts bakeoff's own scripted
 * model server on loopback for the bake (`gold`, `web`, `provider-tool`, a fault script, or a
 * replay file relative to `cwd`), logging what it receives to `BAKEOFF_SCRIPTED_LOG` when set;
 * every other value is a real API whose key stays in this process, checked to resolve and answer
 * before anything starts (`preflightUpstream`).
 */
export async function openModelUpstream(
  spec: string,
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    /** The agents' wire formats: their keys must be set. */
    formats: readonly WireFormat[];
    /** What is read for a replay file `scripted:<file>` names (a fleet worker: the signed bundle's copy); default: the file. */
    hostFile?: HostFile;
  },
): Promise<ModelUpstream> {
  if (spec.startsWith('scripted:')) {
    const name = spec.slice('scripted:'.length);
    // the scripted model server is loaded for scripted bakes only
    const { FAULT_SCRIPTS, GOLD_SCRIPTS, requestLog, startModelServer } = await import('../../model-server/index.js');
    const makesGold = (GOLD_SCRIPTS as readonly string[]).includes(name);
    const builtin = makesGold || (FAULT_SCRIPTS as readonly string[]).includes(name);
    const named = builtin ? name : path.resolve(options.cwd, name);
    const script = builtin || !options.hostFile ? named : options.hostFile(named);
    if (script === null) throw new UserError(`--upstream ${spec}: expected a replay file at ${named}, found none`);
    // BAKEOFF_SCRIPTED_LOG: every request that reached the scripted model past the proxy, for debugging and the closed-web tests
    const log = options.env.BAKEOFF_SCRIPTED_LOG ? requestLog(path.resolve(options.cwd, options.env.BAKEOFF_SCRIPTED_LOG)) : null;
    const server = await startModelServer({ listen: { host: '127.0.0.1', port: 0 }, script, ...(log ? { onRequestServed: log.onRequestServed } : {}) });
    // a script file is named with its content's digest: another file of the same name is another upstream (other run ids)
    const fileDigest = builtin ? '' : sha256(await readFile(script)).slice(0, 12);
    return {
      name: builtin ? spec : `scripted:${path.basename(named)}#${fileDigest}`,
      upstream: scriptedUpstream(server.url),
      scripted: true,
      ...(makesGold ? { gold: { register: (token: string, session: GoldSession) => server.registerSession(token, session), forget: (token: string) => server.forgetSession(token) } } : {}),
      close: async () => {
        await server.close();
        await log?.flushed();
      },
    };
  }
  const upstream = upstreamFor(spec, options.env, { formats: options.formats });
  // before the first session: an upstream that does not resolve or answer stops the bake, naming its host (decision 011)
  await preflightUpstream(upstream, options.formats, spec);
  return { name: upstream.name, upstream, scripted: false, close: async () => undefined };
}
