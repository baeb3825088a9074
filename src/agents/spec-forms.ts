/** Spec forms accepted today, for error messages and `bakeoff agents` (which loads this file alone, not the agents). */
export const SPEC_FORMS = ['gold', 'noop', 'patch:<file.jsonl>', 'command:<shell command>', '<harness>:<model>[@effort]'] as const;
