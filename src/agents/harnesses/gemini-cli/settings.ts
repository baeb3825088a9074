import { UserError } from '../../../errors.js';
import type { SetupInput } from '../types.js';
import { geminiEfforts, thinkingConfigFor } from './thinking.js';

/** Gemini CLI's own web tools, excluded on the closed web. */
export const GEMINI_WEB_TOOLS = ['google_web_search', 'web_fetch'] as const;

/**
 * `~/.gemini/settings.json`.
 * - `security.auth.selectedType: gemini-api-key`: with `GOOGLE_GEMINI_BASE_URL` set and no
 *   selected type, the CLI picks the "gateway" type and exits 41 "Invalid auth method selected".
 * - `security.folderTrust.enabled: false`: an untrusted folder turns `--yolo` back into
 *   approval prompts nobody can answer.
 * - Usage statistics (Clearcut), telemetry, auto-update and its notification off: zero lookups.
 * - Closed web: `tools.exclude` names its own web tools (google_web_search sends `{googleSearch}`
 *   to a second model, web_fetch `{urlContext}`): they leave the tool list.
 * - The effort, when asked for, as a `modelConfigs.overrides` thinking override (thinking.ts)
 *   on the chat models.
 */
export function geminiSettingsJson(input: SetupInput): string {
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ...(input.openWeb ? {} : { tools: { exclude: [...GEMINI_WEB_TOOLS] } }),
    ...(input.effort === null ? {} : { modelConfigs: { overrides: [thinkingOverride(input.model, input.effort)] } }),
  };
  return `${JSON.stringify(settings, null, 2)}\n`;
}

/**
 * The model-config alias every chat model's alias chain goes through (`chat-base-2.5` and
 * `chat-base-3` extend it, and a model without an alias falls back to it). An override must
 * match on the chain, not on the requested id: the CLI swaps some ids before it resolves the
 * config (gemini-3-pro-preview runs as gemini-3.1-pro-preview, gemini-3.5-flash as
 * gemini-3.8-flash), and an override naming the requested id is then silently skipped.
 */
const CHAT_BASE_ALIAS = 'chat-base';

function thinkingOverride(model: string, effort: string): unknown {
  const thinkingConfig = thinkingConfigFor(model, effort);
  if (thinkingConfig === null) {
    const levels = geminiEfforts(model);
    throw new UserError(
      `agent gemini-cli:${model}@${effort}: expected ${levels.length === 0 ? 'no effort (bakeoff knows no thinking setting for this model)' : `one of ${levels.join(', ')}`}, received "${effort}"`,
    );
  }
  return { match: { model: CHAT_BASE_ALIAS }, modelConfig: { generateContentConfig: { thinkingConfig } } };
}
