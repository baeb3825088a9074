import path from 'node:path';
import { UserError } from '../../errors.js';
import { credentialDir, isSubscriptionHarness, readCredential, readUserLogin, SUBSCRIPTION_HARNESSES, writeCredential } from '../../meter/subscription/credential-store.js';
import { EXIT, type CliIo } from '../io.js';

/**
 * `bakeoff auth import codex|claude-code [--from FILE]`: copies the user's existing login into
 * bakeoff's own store on the host (`$BAKEOFF_AUTH_DIR`, else `~/.config/bakeoff/auth`; the
 * folder 0700, each file 0600), from where only the metering proxy on the host uses it: no
 * sandbox and no results folder ever holds it. `bakeoff auth status`: what is stored (plan,
 * expiry, last refresh), never the tokens.
 */
export async function authCommand(action: string, harness: string | undefined, flags: { from?: string; json: boolean }, io: CliIo): Promise<number> {
  const dir = credentialDir(io.env);
  if (action === 'import') {
    if (harness === undefined || !isSubscriptionHarness(harness)) {
      throw new UserError(`auth import: expected a harness with a subscription login, one of ${SUBSCRIPTION_HARNESSES.join(', ')}, received ${harness === undefined ? 'none' : JSON.stringify(harness)}`);
    }
    const login = await readUserLogin(harness, io.env, flags.from === undefined ? undefined : path.resolve(io.cwd, flags.from));
    const file = await writeCredential(dir, login);
    const summary = { harness, file, importedFrom: login.importedFrom, plan: login.plan, expiresAt: login.expiresAt === null ? null : new Date(login.expiresAt).toISOString(), refreshable: login.refreshToken !== null };
    if (flags.json) io.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    else io.stdout.write(`imported the ${harness} login from ${login.importedFrom} into ${file} (0600)${login.plan ? `, plan ${login.plan}` : ''}; bakeoff refreshes it on this host from now on\n`);
    return EXIT.ok;
  }
  if (action === 'status') {
    const rows = [];
    for (const name of SUBSCRIPTION_HARNESSES) {
      if (harness !== undefined && harness !== name) continue;
      try {
        const c = await readCredential(dir, name);
        rows.push({ harness: name, stored: true, plan: c.plan, expiresAt: c.expiresAt === null ? null : new Date(c.expiresAt).toISOString(), lastRefresh: c.lastRefresh, refreshable: c.refreshToken !== null, importedFrom: c.importedFrom });
      } catch {
        rows.push({ harness: name, stored: false });
      }
    }
    if (flags.json) io.stdout.write(JSON.stringify({ dir, logins: rows }, null, 2) + '\n');
    else io.stdout.write(rows.map((r) => ('plan' in r ? `${r.harness}: plan ${r.plan ?? '(not named)'}, expires ${r.expiresAt ?? '(not said)'}, last refresh ${r.lastRefresh}` : `${r.harness}: no login (bakeoff auth import ${r.harness})`)).join('\n') + '\n');
    return EXIT.ok;
  }
  throw new UserError(`auth: expected "import" or "status", received ${JSON.stringify(action)}`);
}
