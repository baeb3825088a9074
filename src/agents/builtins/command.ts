import { copyFile, mkdir } from 'node:fs/promises';
import { statSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../errors.js';
import { sha256 } from '../../util/index.js';
import type { Bind } from '../../sandbox/index.js';
import { localFile } from '../host-file.js';
import type { Agent, HostFile } from '../types.js';

const MAX_AGENT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Any program as the agent: run with `sh -c` in the workspace, the prompt in
 * `$BAKEOFF_PROMPT_FILE`, inside the sandbox, within the session wall clock.
 *
 * Inside the sandbox only the workspace and the prompt exist, so regular files the command
 * names (`./my-agent.sh`, `node agents/x.mjs`) are resolved against the directory bakeoff was
 * started from, rewritten to absolute paths, and shown read-only at those paths (copied into
 * the session's scratch folder first). Folders are never copied, and a command that names a
 * file inside the suite, the results folder or bakeoff's caches is refused: naming a hidden
 * test must not be a way to read it. `hostFile` says what is read for such a path (on a fleet
 * worker: the coordinator's copy from the signed bundle, never the worker's own file).
 */
export function createCommandAgent(command: string, options: { cwd: string; forbiddenRoots?: readonly string[]; hostFile?: HostFile }): Agent {
  const hostFile = options.hostFile ?? localFile;
  const files: { readonly path: string; readonly source: string }[] = [];
  const forbidden = (options.forbiddenRoots ?? []).map((r) => path.resolve(r));
  const resolved = command
    .split(/(\s+)/)
    .map((token) => {
      if (!token.includes('/') || /^\s+$/.test(token)) return token;
      const absolute = path.resolve(options.cwd, token);
      const root = forbidden.find((r) => absolute === r || absolute.startsWith(r + path.sep) || r.startsWith(absolute + path.sep));
      if (root) {
        throw new UserError(`--agent command:${command}: names ${absolute}, which is or holds a folder agents may not see (${root})`);
      }
      const source = hostFile(absolute);
      if (source === null || statSync(source).size > MAX_AGENT_FILE_BYTES) return token;
      files.push({ path: absolute, source });
      return absolute;
    })
    .join('');
  return {
    info: { id: `command:${command}`, harness: 'command', version: null, model: null, effort: null },
    digest: sha256(`command:${resolved}`),
    runSession: async (ctx) => {
      const binds: Bind[] = [
        { path: ctx.workspace, writable: true },
        { path: ctx.promptFile, writable: false },
      ];
      for (const [i, file] of files.entries()) {
        const copy = path.join(ctx.scratchDir, 'agent-files', String(i), path.basename(file.path));
        await mkdir(path.dirname(copy), { recursive: true });
        await copyFile(file.source, copy);
        binds.push({ path: file.path, source: copy, writable: false });
      }
      const result = await ctx.sandbox.exec({
        command: resolved,
        cwd: ctx.workspace,
        env: {
          ...ctx.env,
          BAKEOFF_PROMPT_FILE: ctx.promptFile,
          BAKEOFF_TASK: ctx.taskId,
          BAKEOFF_ORDER: String(ctx.order),
        },
        timeoutMs: ctx.timeoutMs,
        network: 'none',
        outputPath: ctx.outputPath,
        maxOutputBytes: ctx.maxOutputBytes,
        binds,
      });
      // The command is the agent: however it ends (even `exit 127`), its change is graded. A
      // command that cannot run at all changes nothing and fails; its log says why.
      return {
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
        limitHit: result.limitHit,
        cpu: result.cpu ?? null,
        ...(result.exitCode === 127 ? { flags: [`the command exited with status 127 (command not found?): ${command}`] } : {}),
      };
    },
  };
}
