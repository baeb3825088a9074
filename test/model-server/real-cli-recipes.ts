import { HARNESS_NAMES } from '../../src/agents/harnesses/index.js';
import { testRecipeOf, type CliEvent, type CliRecipe } from '../../src/agents/harnesses/test-recipe.js';
import { installedClis, type InstalledCli } from '../../src/agents/installed-clis.test-support.js';

/** One line of a CLI's JSONL output. */
export type Event = CliEvent;

/** A harness folder's recipe, named for the test and bound to the harness's pinned CLI. */
export interface NamedRecipe extends CliRecipe {
  /** `<harness>` or `<harness> <variant>`. */
  readonly name: string;
  readonly cli: InstalledCli;
}

/** The JSON lines of a CLI's stdout (other lines skipped). */
export function readEvents(stdout: string): Event[] {
  return stdout.split('\n').flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return value !== null && typeof value === 'object' ? [value as Event] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Every registered harness's recipes, read from `src/agents/harnesses/<name>/test-recipe.ts`
 * (so a new harness brings its own real-CLI test), each with its pinned CLI's state. A harness
 * without recipes is an error: every harness gets its real-CLI test.
 */
export async function registeredRecipes(): Promise<NamedRecipe[]> {
  const clis = await installedClis();
  const out: NamedRecipe[] = [];
  for (const cli of clis) {
    const module = await testRecipeOf(cli.name);
    for (const recipe of module.recipes) out.push({ ...recipe, name: recipe.variant ? `${cli.name} ${recipe.variant}` : cli.name, cli });
  }
  if (out.length === 0) throw new Error(`no recipes for the harnesses ${HARNESS_NAMES.join(', ')}`);
  return out;
}
