import path from 'node:path';
import { UserError } from '../errors.js';
import { credentialDir, isSubscriptionHarness, readCredential, readUserLogin, SUBSCRIPTION_HARNESSES, writeCredential } from '../meter/subscription/credential-store.js';
import { cwdOf, envOf, type Place } from './paths.js';

/** A login imported into bakeoff's store: what it is, never its tokens. */
export interface ImportedLogin {
  readonly harness: string;
  readonly file: string;
  readonly importedFrom: string;
  readonly plan: string | null;
  readonly expiresAt: string | null;
  readonly refreshable: boolean;
}

/**
 * Copies the user's existing subscription login (codex, claude-code) into bakeoff's own store on
 * the host (`$BAKEOFF_AUTH_DIR`, else `~/.config/bakeoff/auth`; the folder 0700, each file 0600),
 * from where only the metering proxy on the host uses it: no sandbox and no results folder ever
 * holds it. `from`: a login file to read instead of the CLI's own.
 */
export async function importLogin(harness: string | undefined, from: string | undefined, place: Place = {}): Promise<ImportedLogin> {
  if (harness === undefined || !isSubscriptionHarness(harness)) {
    throw new UserError(`auth import: expected a harness with a subscription login, one of ${SUBSCRIPTION_HARNESSES.join(', ')}, received ${harness === undefined ? 'none' : JSON.stringify(harness)}`);
  }
  const env = envOf(place);
  const login = await readUserLogin(harness, env, from === undefined ? undefined : path.resolve(cwdOf(place), from));
  const file = await writeCredential(credentialDir(env), login);
  return { harness, file, importedFrom: login.importedFrom, plan: login.plan, expiresAt: login.expiresAt === null ? null : new Date(login.expiresAt).toISOString(), refreshable: login.refreshToken !== null };
}

/** One subscription harness's stored login, never its tokens. */
export type StoredLogin =
  | { readonly harness: string; readonly stored: false }
  | { readonly harness: string; readonly stored: true; readonly plan: string | null; readonly expiresAt: string | null; readonly lastRefresh: string; readonly refreshable: boolean; readonly importedFrom: string };

/** What the store holds (plan, expiry, last refresh) for each subscription harness, or only `harness`. */
export async function loginStatus(harness: string | undefined, place: Place = {}): Promise<{ dir: string; logins: StoredLogin[] }> {
  const dir = credentialDir(envOf(place));
  const logins: StoredLogin[] = [];
  for (const name of SUBSCRIPTION_HARNESSES) {
    if (harness !== undefined && harness !== name) continue;
    try {
      const c = await readCredential(dir, name);
      logins.push({ harness: name, stored: true, plan: c.plan, expiresAt: c.expiresAt === null ? null : new Date(c.expiresAt).toISOString(), lastRefresh: c.lastRefresh, refreshable: c.refreshToken !== null, importedFrom: c.importedFrom });
    } catch {
      logins.push({ harness: name, stored: false });
    }
  }
  return { dir, logins };
}
