/** One section of the methodology page: a heading and its paragraphs, as plain sentences. */
export interface MethodologySection {
  readonly id: string;
  readonly heading: string;
  readonly paragraphs: readonly string[];
}
