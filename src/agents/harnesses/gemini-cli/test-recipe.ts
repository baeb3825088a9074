import { last, put, type CliRecipe } from '../test-recipe.js';

/** The agent the end-to-end agent tests run. */
export const e2eSpec = 'gemini-cli:gemini-2.5-pro';

/** `gemini -p --output-format stream-json` at `GOOGLE_GEMINI_BASE_URL`. */
export const recipes: readonly CliRecipe[] = [
  {
    variant: '',
    async setup({ home, url, prompt }) {
      await put(`${home}/.gemini/settings.json`, {
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      });
      return {
        args: ['-p', prompt, '--output-format', 'stream-json', '--yolo', '-m', 'gemini-2.5-pro'],
        env: { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'dummy' },
      };
    },
    finalMessage: (events) => {
      if (last(events)?.type !== 'result' || last(events)?.status !== 'success') return null;
      // The answer streams as assistant `message` deltas after the last tool result.
      const lastTool = events.map((e) => e.type).lastIndexOf('tool_result');
      const text = events.slice(lastTool + 1).filter((e) => e.type === 'message' && e.role === 'assistant');
      return text.map((e) => e.content).join('');
    },
  },
];
