/**
 * Runs a host-side step on the agent's change (capturing it, grading it). When the step throws,
 * the same step is tried on the unchanged prepared repo (`control`): if that works, the change
 * made the step fail — the agent's failure, returned as `failure`; if the control fails too,
 * bakeoff or the machine is at fault and the step's error is thrown on (the run becomes void
 * `infra-error`). A check that does not depend on the change decides, never a guess.
 */
export async function agentsOrOurs<T>(step: () => Promise<T>, control: () => Promise<unknown>): Promise<{ value: T } | { failure: string }> {
  try {
    return { value: await step() };
  } catch (error) {
    try {
      await control();
    } catch {
      throw error;
    }
    return { failure: (error as Error).message.slice(0, 1000) };
  }
}
