export { parseUsage, type ParseUsageOptions } from './parse-usage.js';
export type { ParseUsageResult, RequestUsage, WireFormat } from './types.js';
export { wireFormatOf } from './wire-format-of.js';
