import { describe, expect, it } from 'vitest';
import { compareVersions, formatVersion, InvalidVersionError, parseVersion } from '../src/index.ts';

describe('parseVersion', () => {
  it('parses a release version', () => {
    expect(parseVersion('1.20.3')).toEqual({ major: 1, minor: 20, patch: 3, prerelease: [], build: [] });
  });

  it('parses pre-release and build parts', () => {
    expect(parseVersion('v1.4.0-rc.1+build.7')).toEqual({
      major: 1,
      minor: 4,
      patch: 0,
      prerelease: ['rc', 1],
      build: ['build', '7'],
    });
  });

  it.each(['1.2', '01.2.3', '1.2.3-', '1.2.3-01', 'a.b.c', '1.2.3.4', ''])('rejects %j', (input) => {
    expect(() => parseVersion(input)).toThrow(InvalidVersionError);
  });

  it('formats back', () => {
    expect(formatVersion(parseVersion('2.0.0-alpha.3+sha.1a2b'))).toBe('2.0.0-alpha.3+sha.1a2b');
  });
});

describe('compareVersions', () => {
  it('orders by major, minor, patch', () => {
    expect(compareVersions('1.2.3', '1.10.0')).toBe(-1);
    expect(compareVersions('2.0.0', '1.99.99')).toBe(1);
    expect(compareVersions('1.2.3', '1.2.3')).toBe(0);
  });

  it('follows the SemVer pre-release precedence example', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    const shuffled = [ordered[3], ordered[7], ordered[0], ordered[5], ordered[2], ordered[6], ordered[1], ordered[4]];
    expect([...shuffled].sort(compareVersions)).toEqual(ordered);
  });

  it('ignores build metadata', () => {
    expect(compareVersions('1.0.0+a', '1.0.0+b')).toBe(0);
  });
});
