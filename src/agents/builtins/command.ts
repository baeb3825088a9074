import { cp, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../util/hash.js';
import type { Bind } from '../../sandbox/types.js';
import type { Agent } from '../types.js';

/**
 * Any program as the agent: run with `sh -c` in the workspace, the prompt in
 * `$BAKEOFF_PROMPT_FILE`, inside the sandbox, within the session wall clock.
 *
 * Inside the sandbox only the workspace and the prompt exist, so files the command names
 * (`./my-agent.sh`, `node agents/x.mjs`) are resolved against the directory bakeoff was started
 * from, rewritten to absolute paths, and shown read-only at those paths (copied into the
 * session's scratch folder first, so the sandbox needs no access to the user's folders).
 */
export function createCommandAgent(command: string, options: { cwd: string }): Agent {
  const files: string[] = [];
  const resolved = command
    .split(/(\s+)/)
    .map((token) => {
      if (!token.includes('/') || /^\s+$/.test(token)) return token;
      const absolute = path.resolve(options.cwd, token);
      if (!existsSync(absolute)) return token;
      files.push(absolute);
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
        const copy = path.join(ctx.scratchDir, 'agent-files', String(i), path.basename(file));
        await mkdir(path.dirname(copy), { recursive: true });
        await cp(file, copy, { recursive: true });
        binds.push({ path: file, source: copy, writable: false });
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
        binds,
      });
      return {
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
        limitHit: result.limitHit,
        ...(result.exitCode === 127 ? { error: `command not found: ${command}` } : {}),
      };
    },
  };
}
