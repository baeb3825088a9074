import { UserError } from '../../errors.js';
import { importLogin, loginStatus } from '../../api/auth.js';
import type { AuthFlags } from '../command-options.js';
import { EXIT, placeOf, type CliIo } from '../io.js';

/**
 * `bakeoff auth import codex|claude-code [--from FILE]`: copies the user's existing login into
 * bakeoff's own store on the host (see `importLogin`). `bakeoff auth status`: what is stored
 * (plan, expiry, last refresh), never the tokens.
 */
export async function authCommand(action: string, harness: string | undefined, flags: AuthFlags, io: CliIo): Promise<number> {
  if (action === 'import') {
    const login = await importLogin(harness, flags.from, placeOf(io));
    if (flags.json) io.stdout.write(JSON.stringify(login, null, 2) + '\n');
    else io.stdout.write(`imported the ${login.harness} login from ${login.importedFrom} into ${login.file} (0600)${login.plan ? `, plan ${login.plan}` : ''}; bakeoff refreshes it on this host from now on\n`);
    return EXIT.ok;
  }
  if (action === 'status') {
    const status = await loginStatus(harness, placeOf(io));
    if (flags.json) io.stdout.write(JSON.stringify(status, null, 2) + '\n');
    else io.stdout.write(status.logins.map((r) => (r.stored ? `${r.harness}: plan ${r.plan ?? '(not named)'}, expires ${r.expiresAt ?? '(not said)'}, last refresh ${r.lastRefresh}` : `${r.harness}: no login (bakeoff auth import ${r.harness})`)).join('\n') + '\n');
    return EXIT.ok;
  }
  throw new UserError(`auth: expected "import" or "status", received ${JSON.stringify(action)}`);
}
