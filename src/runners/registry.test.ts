import { describe, expect, it } from 'vitest';
import { getTestRunner, REPORT_FORMATS } from './registry.js';

describe('getTestRunner', () => {
  it('has an adapter for every report format, each registered under its own format', () => {
    for (const format of REPORT_FORMATS) {
      expect(getTestRunner(format).format).toBe(format);
    }
  });
});
