/** Inputs of {@link formatPairedSentence}. */
export interface PairedSentenceInput {
  readonly suiteId: string;
  /** Fewest and most runs either agent made of one task. */
  readonly attemptsPerTask: { readonly min: number; readonly max: number };
  readonly a: string;
  readonly b: string;
  readonly aWins: number;
  readonly bWins: number;
  readonly ties: number;
  readonly void: number;
}

/**
 * The legal sentence of a paired comparison (notes/statistics.md, replay-slice method):
 * `On <suite id>, with one attempt per task and a frozen oracle, A won 5, B won 3, 14 tied, 2 void.`
 * One attempt is spelled as in the method; more are written as digits (`with 2 attempts per task`),
 * uneven counts as a range (`with 1–2 attempts per task`).
 */
export function formatPairedSentence(input: PairedSentenceInput): string {
  const { min, max } = input.attemptsPerTask;
  const attempts =
    min !== max ? `${min}–${max} attempts` : max === 1 ? 'one attempt' : `${max} attempts`;
  return (
    `On ${input.suiteId}, with ${attempts} per task and a frozen oracle, ` +
    `${input.a} won ${input.aWins}, ${input.b} won ${input.bWins}, ${input.ties} tied, ${input.void} void.`
  );
}
