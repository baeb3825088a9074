export class InvalidVersionError extends Error {
  constructor(readonly input: string) {
    super(`Invalid version: ${JSON.stringify(input)}`);
    this.name = 'InvalidVersionError';
  }
}

export class InvalidRangeError extends Error {
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`Invalid range ${JSON.stringify(input)}: ${reason}`);
    this.name = 'InvalidRangeError';
  }
}
