/**
 * pi's `--thinking` levels, lowest first; pi takes all six for every model and maps or clamps
 * them per model itself (e.g. `xhigh` → `high` where the model has no such level, anything →
 * nothing for a model without reasoning). `off` is pi's lowest: no thinking at all.
 */
const LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export function piEfforts(_model: string): readonly string[] {
  return LEVELS;
}
