import path from 'node:path';
import { InputError, UserError } from '../errors.js';
import type { WireFormat } from '../meter/index.js';
import { readAgentsFile } from './agents-file.js';
import { createHarnessAgent } from './harness-agent/create-harness-agent.js';
import type { LevelSource } from './effort-levels.js';
import type { Price } from './harness-agent/account-session.js';
import type { ModelUpstream } from './harness-agent/model-upstream.js';
import { exampleSpec, expectedHarness, HARNESS_NAMES, harnessNamed } from './harnesses/index.js';
import { parseHarnessSpec, type HarnessSpec } from './harness-spec.js';
import { resolveAgent } from './registry.js';
import type { Agent, HostFile } from './types.js';
import type { ProbeCache } from '../util/index.js';

export interface ResolveAgentsOptions {
  readonly cwd: string;
  readonly forbiddenRoots: readonly string[];
  /** The suite's tasks and how many orders each has (`patch:` files are checked against them). */
  readonly suiteTasks?: ReadonlyMap<string, number>;
  /** SWE-bench instance ids of the suite's imported tasks (`origin.id`) → task ids, for `patch:` predictions files. */
  readonly suiteInstances?: ReadonlyMap<string, string>;
  /** `--agents` file, if any. */
  readonly agentsFile?: string;
  /** Opens the model upstream for agents speaking these wire formats; called once, only when a model agent is asked for. */
  readonly openUpstream: (formats: readonly WireFormat[]) => Promise<ModelUpstream>;
  /** The list price of a model in force at a moment (each model request is priced at its own time). */
  readonly priceOf: (model: string, at: Date) => Price | null;
  readonly idleTimeoutMs: number;
  readonly traceNetwork?: boolean;
  /** `--auth`: how the `--agent` model specs authenticate (agents-file entries say it themselves); default `api`. */
  readonly auth?: 'api' | 'subscription';
  /** bakeoff's environment (the harness CLIs' own catalogs are read with it); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** What is read for a file a spec names (`command:` scripts, `patch:` files); default: the file itself. */
  readonly hostFile?: HostFile;
  /** Where the harness CLIs' versions and built-in catalogs are kept between invocations; default: probe every time. */
  readonly probes?: ProbeCache;
}

type Wanted =
  | { kind: 'plain'; spec: string }
  | { kind: 'model'; spec: HarnessSpec; auth: 'api' | 'subscription'; name?: string; args?: readonly string[]; env?: Readonly<Record<string, string>>; writtenAt?: { file: string; field: string } };

/**
 * Every agent of a bake: the `--agent` specs (builtins, `patch:`, `command:`,
 * `<harness>:<model>[@effort]`) and the named agents of an agents file, ids unique. Returns the
 * upstream too when one was opened, for the caller to close.
 */
export async function resolveAgents(specs: readonly string[], options: ResolveAgentsOptions): Promise<{ agents: Agent[]; upstream: ModelUpstream | null }> {
  const wanted: Wanted[] = specs.map((spec) => {
    const parsed = parseHarnessSpec(spec);
    if (parsed && 'error' in parsed) throw new UserError(`--agent ${parsed.error}`);
    return parsed ? { kind: 'model', spec: parsed, auth: options.auth ?? 'api' } : { kind: 'plain', spec };
  });
  if (options.agentsFile) {
    const file = path.resolve(options.cwd, options.agentsFile);
    for (const named of await readAgentsFile(file)) {
      const parsed = parseHarnessSpec(named.spec);
      if (!parsed) {
        const harness = named.spec.slice(0, named.spec.indexOf(':'));
        throw new InputError([{ file, field: `agents.${named.name}.harness`, expected: expectedHarness(harness), received: JSON.stringify(harness) }]);
      }
      if ('error' in parsed) {
        throw new InputError([{ file, field: `agents.${named.name}`, expected: `a harness and a model id (e.g. ${exampleSpec(HARNESS_NAMES[0]!)})`, received: JSON.stringify(named.spec) }]);
      }
      wanted.push({ kind: 'model', spec: parsed, auth: named.auth, name: named.name, args: named.args, env: named.env, writtenAt: { file, field: `agents.${named.name}.effort` } });
    }
  }
  const models = wanted.filter((w) => w.kind === 'model');
  // subscription agents take no API key: their formats are not the upstream's to check
  const formats = [...new Set(models.filter((w) => w.auth === 'api').map((w) => harnessNamed(w.spec.harness).wireFormat(w.spec.model)))];
  const upstream = models.length > 0 ? await options.openUpstream(formats) : null;
  try {
    const levelSources = new Map<string, Promise<LevelSource>>();
    const agents: Agent[] = [];
    for (const w of wanted) {
      agents.push(
        w.kind === 'plain'
          ? await resolveAgent(w.spec, options)
          : await createHarnessAgent({
              spec: w.spec,
              ...(w.name ? { name: w.name } : {}),
              ...(w.args ? { args: w.args } : {}),
              ...(w.env ? { env: w.env } : {}),
              upstream: upstream!,
              priceOf: options.priceOf,
              idleTimeoutMs: options.idleTimeoutMs,
              traceNetwork: options.traceNetwork ?? false,
              ...(options.env ? { hostEnv: options.env } : {}),
              ...(w.writtenAt ? { writtenAt: w.writtenAt } : {}),
              levelSources,
              ...(options.probes ? { probes: options.probes } : {}),
              auth: w.auth,
            }),
      );
    }
    const ids = agents.map((a) => a.info.id);
    const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
    if (duplicate) throw new UserError(`--agent: each agent may appear once, received ${JSON.stringify(duplicate)} twice`);
    if (agents.length === 0) throw new UserError('--agent: expected at least one agent spec (or --agents <file>), received none');
    return { agents, upstream };
  } catch (error) {
    await upstream?.close();
    throw error;
  }
}
