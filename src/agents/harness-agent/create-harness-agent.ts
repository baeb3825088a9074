import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InfraError, InputError, UserError } from '../../errors.js';
import { startMeterProxy } from '../../meter/proxy/proxy.js';
import type { RecordedResponse } from '../../meter/proxy/proxy-types.js';
import { credentialDir, isSubscriptionHarness, SUBSCRIPTION_HARNESSES } from '../../meter/subscription/credential-store.js';
import { subscriptionUpstream, type SubscriptionUpstream } from '../../meter/subscription/subscription-upstream.js';
import { SESSION_HEADER } from '../../model-server/types.js';
import { orderFile } from '../../store/index.js';
import { NO_PROBE_CACHE, noAnswerText, sha256, quoteShellArg, type ProbeCache } from '../../util/index.js';
import { binOf, installDirOf, versionArgsOf } from '../install-harness.js';
import { cachedLevelSource, cachedProbeInstalled } from '../cached-probes.js';
import { harnessNamed } from '../harnesses/index.js';
import type { Harness } from '../harnesses/types.js';
import type { HarnessSpec } from '../harness-spec.js';
import { resolveLevel, type LevelSource } from '../effort-levels.js';
import type { Agent, SessionContext, SessionResult } from '../types.js';
import { sessionCost, type Price } from './account-session.js';
import { accountHarnessSession } from './account-harness-session.js';
import { goldEdits } from './gold-edits.js';
import { requestRowsOf } from './request-rows.js';
import { foreignAttempts, readNetworkTrace, traceNetworkPrefix } from './network-trace.js';
import { readSandboxFile, writeSessionFiles } from './session-files.js';
import type { ModelUpstream } from './model-upstream.js';

/** Port the harness talks to inside the sandbox (its own loopback; relayed to the session's proxy). */
const PROXY_PORT = 8787;
const DUMMY_KEY = 'sk-bakeoff-dummy-key-the-proxy-injects-the-real-one';
const WORKSPACE_INSIDE = '/workspace';

export interface HarnessAgentOptions {
  readonly spec: HarnessSpec;
  /** Name from an agents file; default: the spec with the effort resolved. */
  readonly name?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly upstream: ModelUpstream;
  /** The list price of a model in force at a moment: each request is priced at the time it was made. */
  readonly priceOf: (model: string, at: Date) => Price | null;
  /** A model request with no bytes for this long is a hang (void upstream-hang). */
  readonly idleTimeoutMs: number;
  /** Run the CLI under strace and record every address it tried to reach (`--trace-network`). */
  readonly traceNetwork?: boolean;
  /** bakeoff's environment (where the CLI's own catalog is read from); default `process.env`. */
  readonly hostEnv?: Readonly<Record<string, string | undefined>>;
  /** Level sources already read this bake, by harness (each harness's catalog is read once). */
  readonly levelSources?: Map<string, Promise<LevelSource>>;
  /** Where the CLI's version and built-in catalog are kept between invocations (under the install's stamp); default: probe. */
  readonly probes?: ProbeCache;
  /** `subscription`: run on the user's plan with bakeoff's stored login (`bakeoff auth import`), never an API key. */
  readonly auth?: 'api' | 'subscription';
  /** Where the spec was written, for errors: `--agent` (default) or an agents file and its field. */
  readonly writtenAt?: { readonly file: string; readonly field: string };
}

/**
 * A real coding-agent CLI as an agent: the pinned harness, installed in its own prefix, runs
 * headless inside the sandbox with a fresh HOME; its only network is one loopback port relayed
 * to a metering proxy on the host that injects the real key and counts every token. The
 * session's tokens and cost come from the meter (the same for every harness); what the harness
 * reported is kept next to them, and a disagreement is flagged.
 */
export async function createHarnessAgent(options: HarnessAgentOptions): Promise<Agent> {
  const { spec, upstream } = options;
  const harness = harnessNamed(spec.harness);
  const probes = options.probes ?? NO_PROBE_CACHE;
  const probe = await cachedProbeInstalled(harness, process.env, probes);
  if (probe.kind === 'no-answer') {
    throw new InfraError(`--agent ${spec.harness}:${spec.model}: ${binOf(harness)} is installed but ${noAnswerText(probe)} to ${versionArgsOf(harness).join(' ')}`);
  }
  if (probe.kind === 'missing') {
    throw new UserError(`--agent ${spec.harness}:${spec.model}: ${harness.npmPackage}@${harness.version} is not installed; run \`bakeoff agents install ${spec.harness}\``);
  }
  const version = probe.version;
  // the levels come from the installed CLI's own catalog where it lists one, read once per bake
  const levels = await cachedLevelSource(harness, options.hostEnv ?? process.env, probes, options.levelSources);
  const resolved = resolveLevel(spec, levels);
  if ('error' in resolved) {
    const at = options.writtenAt ?? { file: '--agent', field: `${spec.harness}:${spec.model}@${spec.effort}` };
    throw new InputError([{ file: at.file, field: at.field, expected: resolved.expected, received: `${JSON.stringify(spec.effort)}${resolved.error === null ? '' : `: ${resolved.error}`}` }]);
  }
  const effort = resolved.effort;
  const catalog = levels.text ?? undefined;
  const subscription = options.auth === 'subscription' ? await openSubscription(spec, upstream, options.hostEnv ?? process.env) : null;
  const sessionUpstream = subscription ? { ...upstream, name: subscription.name, upstream: subscription } : upstream;
  // a model id the harness cannot take (pi/OpenCode without a provider prefix) is the user's to fix, before any run
  harness.setup({ installDir: installDirOf(harness), home: '/home/agent', workspace: '/workspace', prompt: '', model: spec.model, effort, baseUrl: `http://127.0.0.1:${PROXY_PORT}`, apiKey: DUMMY_KEY, prices: null, ...(catalog === undefined ? {} : { catalog }) });
  const id = options.name ?? `${spec.harness}:${spec.model}${effort ? `@${effort}` : ''}${subscription ? '+subscription' : ''}`;
  const args = options.args ?? [];
  const extraEnv = options.env ?? {};
  return {
    info: {
      id, harness: spec.harness, version, model: spec.model, effort,
      ...(subscription ? { auth: 'subscription' as const, plan: subscription.plan } : {}),
      // what the site's agent page states; env values stay in the agents file
      settings: { args: [...args], env: Object.keys(extraEnv).sort() },
      webTools: harness.webTools,
    },
    effortCatalog: resolved.ref,
    // the id too: two named agents with the same settings are still two agents (their runs must not share ids);
    // the catalog too: a run resolved from another catalog is another run
    digest: sha256(JSON.stringify({ id, harness: spec.harness, version, model: spec.model, effort, args, env: extraEnv, upstream: sessionUpstream.name, catalog: resolved.ref.digest })),
    runSession: (ctx) =>
      runHarnessSession(ctx, { harness, model: spec.model, effort, catalog, subscription: subscription ? { plan: subscription.plan } : null, args, extraEnv, priceOf: options.priceOf, upstream: sessionUpstream, idleTimeoutMs: options.idleTimeoutMs, traceNetwork: options.traceNetwork ?? false }),
  };
}

/**
 * The subscription upstream of a subscription agent: the plan's own backend for `--upstream
 * vendor`, else the base `--upstream` names (a compatible stand-in, or the scripted model). The
 * bake's API keys are never used. Refused for harnesses without a subscription and for
 * OpenRouter, which takes keys only.
 */
async function openSubscription(spec: HarnessSpec, upstream: ModelUpstream, env: Readonly<Record<string, string | undefined>>): Promise<SubscriptionUpstream> {
  if (!isSubscriptionHarness(spec.harness)) {
    throw new UserError(`--auth subscription: ${spec.harness}:${spec.model}: expected a harness with a subscription login (${SUBSCRIPTION_HARNESSES.join(', ')}), received ${spec.harness}; run it with an API key instead`);
  }
  if (upstream.name === 'openrouter') throw new UserError(`--auth subscription: ${spec.harness}:${spec.model}: expected --upstream vendor (the plan's own backend) or a compatible base URL, received openrouter (API keys only)`);
  const base = upstream.name === 'vendor' ? undefined : upstream.upstream.baseUrl(null);
  return subscriptionUpstream(spec.harness, { dir: credentialDir(env), ...(base === undefined ? {} : { base }), env });
}

interface SessionPlan {
  readonly harness: Harness;
  readonly model: string;
  readonly effort: string | null;
  readonly catalog: string | undefined;
  readonly subscription: { readonly plan: string | null } | null;
  readonly args: readonly string[];
  readonly extraEnv: Readonly<Record<string, string>>;
  readonly priceOf: (model: string, at: Date) => Price | null;
  readonly upstream: ModelUpstream;
  readonly idleTimeoutMs: number;
  readonly traceNetwork: boolean;
}

async function runHarnessSession(ctx: SessionContext, plan: SessionPlan): Promise<SessionResult> {
  const started = performance.now();
  const { harness, upstream } = plan;
  const owner = ctx.sandbox.owner;
  const home = ctx.sandbox.home ?? path.join(ctx.scratchDir, 'home');
  if (ctx.sandbox.home === null) await mkdir(home, { recursive: true });
  const artifactsDir = path.dirname(ctx.outputPath);
  // Inside the sandbox the workspace is always /workspace: the CLI (and the model, which sees its
  // cwd in the system prompt) gets the same path in every run, so a recorded session replays.
  const workspace = ctx.sandbox.isolated ? WORKSPACE_INSIDE : ctx.workspace;

  const token = randomBytes(12).toString('hex');
  if (upstream.gold) {
    try {
      upstream.gold.register(token, { workspace, edits: await goldEdits(ctx.workspace, await readFile(ctx.goldPatchPath, 'utf8')) });
    } catch (error) {
      return instrumentError(started, `scripted gold: ${(error as Error).message}`);
    }
  }
  const installDir = installDirOf(harness);
  const setup = harness.setup({
    installDir,
    home,
    workspace,
    prompt: ctx.prompt,
    model: plan.model,
    effort: plan.effort,
    ...(plan.catalog === undefined ? {} : { catalog: plan.catalog }),
    ...(plan.subscription ? { subscription: plan.subscription } : {}),
    baseUrl: `http://127.0.0.1:${PROXY_PORT}`,
    apiKey: DUMMY_KEY,
    prices: plan.priceOf(plan.model, new Date()),
    openWeb: ctx.openWeb ?? false,
  });
  const files = await writeSessionFiles(ctx.scratchDir, setup, owner);
  const socket = path.join(ctx.scratchDir, 'model.sock');
  const answers: RecordedResponse[] = [];
  // A cut answer voids the run whatever the CLI does next (classifySession), so once the CLI asks
  // for more after one (retrying, often with backoff until the wall clock runs out), the session
  // stops: that saves the waiting and the tokens. A CLI that takes the cut answer and ends on its
  // own is left to do so.
  const stop = new AbortController();
  let cutAnswer = false;
  const proxy = await startMeterProxy({
    listen: { socket },
    upstream: upstream.upstream,
    idleTimeoutMs: plan.idleTimeoutMs,
    openWeb: ctx.openWeb ?? false,
    onResponse: (response) => answers.push(response),
    onRequestEnd: (request) => {
      if (request.failure === 'truncated') cutAnswer = true;
      // priced as the session's accounting prices it, one request at a time
      ctx.onRequest?.(requestRowsOf([request], sessionCost([request], plan.priceOf, plan.model).requests)[0]!);
    },
    onRequestStart: () => {
      if (cutAnswer) stop.abort();
    },
    // which session a request belongs to (each gets its own script, replay or recording), for bakeoff's own scripted model only
    ...(upstream.scripted ? { extraHeaders: { [SESSION_HEADER]: token } } : {}),
  });
  let exec;
  try {
    // only the sandbox's uid may connect: the proxy signs what it relays with the real key
    if (owner) await chown(socket, owner.uid, owner.gid);
    await chmod(socket, 0o600);
    const command = [
      `mkdir -p "$HOME" && cp -R ${quoteShellArg(files.seedDir)}/. "$HOME"/ &&`,
      'exec',
      ...[...(plan.traceNetwork ? traceNetworkPrefix(files.trace) : []), ...withExtraArgs(setup.argv, plan.args)].map(quoteShellArg),
      `< ${quoteShellArg(files.stdin)} > ${quoteShellArg(files.stream)}`,
    ].join(' ');
    exec = await ctx.sandbox.exec({
      command,
      cwd: workspace,
      env: { ...ctx.env, ...setup.env, ...plan.extraEnv, ...(ctx.sandbox.home === null ? { HOME: home } : {}) },
      timeoutMs: ctx.timeoutMs,
      network: 'none',
      outputPath: ctx.outputPath,
      maxOutputBytes: ctx.maxOutputBytes,
      binds: [
        { path: workspace, source: ctx.workspace, writable: true },
        { path: installDir, writable: false },
        { path: files.seedDir, writable: false },
        { path: files.stdin, writable: false },
        { path: files.stream, writable: true },
        ...(plan.traceNetwork ? [{ path: files.trace, writable: true }] : []),
      ],
      modelBridge: { socket, port: PROXY_PORT },
      signal: stop.signal,
    });
  } finally {
    await proxy.close();
    upstream.gold?.forget(token);
  }
  // the session recorded: `--upstream scripted:<this file>` gives the same answers again
  await writeFile(orderFile(artifactsDir, 'modelResponses'), answers.map((a) => JSON.stringify(a) + '\n').join(''));
  const streamText = (await readSandboxFile(files.stream)) ?? '';
  await writeFile(orderFile(artifactsDir, 'stream'), streamText);
  const extraFlags = plan.traceNetwork ? await networkFlags(files.trace, artifactsDir) : [];
  const accounted = accountHarnessSession({
    harness: await harness.stream(),
    model: plan.model,
    stream: streamText,
    exec,
    metered: proxy.requests(),
    priceOf: plan.priceOf,
    idleTimeoutMs: plan.idleTimeoutMs,
    openWeb: ctx.openWeb ?? false,
    durationMs: performance.now() - started,
    extraFlags,
  });
  return { ...accounted, cpu: exec.cpu ?? null };
}

/** Saves the network trace in the order folder (store/run-folder.ts: `network`) next to the agent log; one flag per address other than the proxy. */
async function networkFlags(traceFile: string, artifactsDir: string): Promise<string[]> {
  const log = await readSandboxFile(traceFile);
  if (!log) return ['network: --trace-network was asked for but strace left no log'];
  const attempts = readNetworkTrace(log);
  await writeFile(orderFile(artifactsDir, 'network'), JSON.stringify(attempts, null, 2) + '\n');
  return foreignAttempts(attempts, `127.0.0.1:${PROXY_PORT}`).map((a) => `network: ${a.call} to ${a.address} (${a.result})`);
}

function instrumentError(started: number, detail: string): SessionResult {
  return { exitCode: null, timedOut: false, durationMs: performance.now() - started, error: detail, voidReason: 'agent-error' };
}

/** The harness's command line with the agents file's `args` before the prompt (which follows a `--` where there is one). */
function withExtraArgs(argv: readonly string[], extra: readonly string[]): string[] {
  const dashes = argv.indexOf('--');
  return dashes < 0 ? [...argv, ...extra] : [...argv.slice(0, dashes), ...extra, ...argv.slice(dashes)];
}

