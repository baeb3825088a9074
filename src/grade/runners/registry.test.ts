import { describe, expect, it } from 'vitest';
import { REPORT_FORMATS } from '../types.js';
import { getTestRunner } from './registry.js';

describe('getTestRunner', () => {
  it('has an adapter for every report format, answering to that format', () => {
    for (const format of REPORT_FORMATS) {
      expect(getTestRunner(format).format).toBe(format);
    }
  });
});
