/** `scheme://user:password@` (and `scheme://:password@`) anywhere in a text. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*):([^\s/@]*)@/gi;

/**
 * `text` with the password of every URL in it replaced by `***` (`redis://:s3cret@host` →
 * `redis://:***@host`), for any message or echoed command line that may carry a URL a user
 * typed with its password.
 */
export function maskUrlPasswords(text: string): string {
  return text.replace(USERINFO, (_, scheme: string, user: string, password: string) => (password === '' ? `${scheme}${user}:@` : `${scheme}${user}:***@`));
}
