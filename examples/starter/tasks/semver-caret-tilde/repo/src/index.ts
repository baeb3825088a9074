export { InvalidRangeError, InvalidVersionError } from './errors.ts';
export { compareVersions, formatVersion, parseVersion, type Version } from './version.ts';
export { maxSatisfying, parseRange, satisfies, type Comparator, type Operator, type Range } from './range.ts';
