/** One address a traced process tried to reach (connect, or sendto/sendmsg with an address). */
export interface NetworkAttempt {
  readonly call: string;
  /** `unix` and `netlink` stay inside the machine (netlink: the kernel, e.g. listing interfaces). */
  readonly family: 'inet' | 'inet6' | 'unix' | 'netlink' | 'other';
  /** `1.2.3.4:443`, `[::1]:53`, a socket path, or the raw text for other families. */
  readonly address: string;
  /** The call's result as strace printed it (`0`, `-1 ENETUNREACH (…)`). */
  readonly result: string;
}

/** Prefix that runs a command under strace, logging every network call with an address to `logFile`. */
export function traceNetworkPrefix(logFile: string): string[] {
  return ['strace', '-f', '-qq', '-s', '256', '-e', 'trace=connect,sendto,sendmsg,sendmmsg', '-o', logFile];
}

const CALL = /^(?:\d+\s+)?(connect|sendto|sendmsg|sendmmsg)\((.*?)(?:\)\s+=\s+(.*)|\s*<unfinished \.\.\.>)$/;

/**
 * Every address in an strace log of `traceNetworkPrefix`: what a harness tried to reach,
 * answered or not. A diagnostic of the CLI's behaviour, not the boundary (the sandbox's network
 * namespace is): the log is written inside the sandbox, where the agent could also write. Calls on connected sockets (no address) are skipped; they reach whatever
 * the earlier connect named.
 */
export function readNetworkTrace(log: string): NetworkAttempt[] {
  const attempts: NetworkAttempt[] = [];
  for (const line of log.split('\n')) {
    const m = CALL.exec(line.trim());
    if (!m) continue;
    // a call another thread interrupted is printed `<unfinished ...>`: its address is on this line
    const [, call, args, finished] = m as unknown as [string, string, string, string | undefined];
    const result = finished ?? 'unfinished';
    const inet = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)/.exec(args);
    const inet6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\).*?inet_pton\(AF_INET6, "([^"]+)"/.exec(args);
    const unix = /sa_family=AF_UNIX, sun_path=(@?"[^"]*")/.exec(args);
    if (inet) attempts.push({ call, family: 'inet', address: `${inet[2]}:${inet[1]}`, result });
    else if (inet6) attempts.push({ call, family: 'inet6', address: `[${inet6[2]}]:${inet6[1]}`, result });
    else if (unix) attempts.push({ call, family: 'unix', address: unix[1]!.replace(/"/g, ''), result });
    else if (/sa_family=AF_NETLINK/.test(args)) attempts.push({ call, family: 'netlink', address: 'AF_NETLINK', result });
    else if (/sa_family=AF_/.test(args)) attempts.push({ call, family: 'other', address: /sa_family=(AF_\w+)/.exec(args)![1]!, result });
  }
  return attempts;
}

/** The attempts that went anywhere but `allowed` (the proxy's loopback address); unix and netlink sockets are local. */
export function foreignAttempts(attempts: readonly NetworkAttempt[], allowed: string): NetworkAttempt[] {
  return attempts.filter((a) => a.family !== 'unix' && a.family !== 'netlink' && a.address !== allowed);
}
