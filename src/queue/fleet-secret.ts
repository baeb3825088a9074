import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';

/** Where a fleet process finds the fleet's secret: a file (flag or variable) or a variable. */
export interface SecretPlace {
  /** `--secret-file`: wins over the environment. */
  readonly secretFile?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** Fewer characters than this cannot be a secret worth the name (`openssl rand -hex 32` gives 64). */
export const MIN_SECRET_CHARS = 32;

const HOW = `set BAKEOFF_FLEET_SECRET (or BAKEOFF_FLEET_SECRET_FILE, or --secret-file FILE) to the same value on the coordinator and every worker, e.g. from \`openssl rand -hex 32\`; it never goes into Redis`;

/**
 * The fleet secret that signs jobs and results (decision 014): `--secret-file`, else the file
 * `BAKEOFF_FLEET_SECRET_FILE` names, else `BAKEOFF_FLEET_SECRET`. Surrounding whitespace (a
 * file's last newline) is dropped. Missing or short: a user error that never shows the value.
 */
export async function readFleetSecret(place: SecretPlace): Promise<Buffer> {
  const file = place.secretFile ?? nonEmpty(place.env.BAKEOFF_FLEET_SECRET_FILE);
  let text: string;
  let where: string;
  if (file !== undefined) {
    const absolute = path.resolve(place.cwd, file);
    where = place.secretFile !== undefined ? `--secret-file ${absolute}` : `BAKEOFF_FLEET_SECRET_FILE (${absolute})`;
    try {
      text = await readFile(absolute, 'utf8');
    } catch (error) {
      throw new UserError(`${where}: cannot read the fleet secret (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); ${HOW}`);
    }
  } else {
    const value = nonEmpty(place.env.BAKEOFF_FLEET_SECRET);
    if (value === undefined) throw new UserError(`a fleet needs its secret, which signs every job and result: ${HOW}`);
    text = value;
    where = 'BAKEOFF_FLEET_SECRET';
  }
  const secret = text.trim();
  if (secret.length < MIN_SECRET_CHARS) {
    throw new UserError(`${where}: expected a fleet secret of at least ${MIN_SECRET_CHARS} characters, received ${secret.length}; ${HOW}`);
  }
  return Buffer.from(secret, 'utf8');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
