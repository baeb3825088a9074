import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * The shape of each harness folder's `test-recipe.ts`: how test/model-server/real-clis.test.ts
 * points the real CLI at bakeoff's scripted model server, offline and isolated (agent-clis.md
 * §7): a fresh HOME, the CLI's own config files, env without the host's; and the agent spec the
 * end-to-end agent tests bake with (test/e2e/agents). Test support only: the build leaves these
 * files out (tsconfig.build.json); production starts CLIs with `Harness.setup`.
 */

/** One line of a CLI's JSONL output. */
export type CliEvent = Record<string, any>;

/** One way to run the harness's CLI against the model server (a harness may have several). */
export interface CliRecipe {
  /** What tells this recipe from the harness's others (`''` for the first); the test is named `<harness> <variant>`. */
  readonly variant: string;
  /** Writes config under `home` and returns the argv (after the binary) and the env. */
  setup(input: { home: string; workdir: string; url: string; prompt: string }): Promise<{ args: string[]; env: Record<string, string> }>;
  /** The agent's final answer, read from its JSONL stdout; null when there is none. */
  finalMessage(events: readonly CliEvent[]): string | null;
  /**
   * Set when the recipe turns the CLI's retries off, so a model-server fault ends the session at
   * once: the exit code the CLI ends a failed session with. Unset: the fault scripts skip this recipe.
   */
  readonly faultExitCode?: number;
}

/** What a harness folder's `test-recipe.ts` exports. */
export interface TestRecipeModule {
  readonly recipes: readonly CliRecipe[];
  /** The agent spec (`<harness>:<model>[@effort]`) the end-to-end agent tests run this harness as, against bakeoff's scripted model server. */
  readonly e2eSpec: string;
}

/** A registered harness's `<name>/test-recipe.ts`, checked: at least one recipe, and an `e2eSpec` of this harness. */
export async function testRecipeOf(name: string): Promise<TestRecipeModule> {
  const file = `src/agents/harnesses/${name}/test-recipe.ts`;
  const module = (await import(`./${name}/test-recipe.ts`)) as Partial<TestRecipeModule>;
  if (!module.recipes?.length) throw new Error(`${file}: expected \`export const recipes\` with at least one recipe`);
  if (typeof module.e2eSpec !== 'string' || !module.e2eSpec.startsWith(`${name}:`)) {
    throw new Error(`${file}: expected \`export const e2eSpec\` = "${name}:<model>[@effort]", received ${JSON.stringify(module.e2eSpec)}`);
  }
  return module as TestRecipeModule;
}

/** The last item, if any. */
export const last = <T>(items: readonly T[]): T | undefined => items[items.length - 1];

/** Writes `content` (JSON unless a string) to `file`, creating its folder. */
export async function put(file: string, content: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}
