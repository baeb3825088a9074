import { sha256 } from '../../util/hash.js';
import type { Agent } from '../types.js';

/**
 * Any program as the agent: run with `sh -c` in the workspace, the prompt in
 * `$BAKEOFF_PROMPT_FILE`, within the session wall clock and the suite's network policy.
 */
export function createCommandAgent(command: string): Agent {
  return {
    info: { id: `command:${command}`, harness: 'command', version: null, model: null, effort: null },
    digest: sha256(`command:${command}`),
    runSession: async (ctx) => {
      const result = await ctx.sandbox.exec({
        command,
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
      });
      return {
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
        ...(result.exitCode === 127 ? { error: `command not found: ${command}` } : {}),
      };
    },
  };
}
