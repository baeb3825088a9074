import { describe, expect, it } from 'vitest';
import { foreignAttempts, readNetworkTrace } from './network-trace.js';

// strace -f -qq -e trace=connect,sendto,sendmsg output, as seen inside the sandbox
const LOG = [
  '7     connect(21, {sa_family=AF_INET, sin_port=htons(8787), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress)',
  '7     connect(22, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file or directory)',
  '9     sendto(23, "\\x12\\x34", 32, MSG_NOSIGNAL, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.2")}, 16) = -1 ENETUNREACH (Network is unreachable)',
  '9     connect(24, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2606:4700::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH (Network is unreachable)',
  '9     sendto(21, "GET / HTTP/1.1", 14, MSG_NOSIGNAL, NULL, 0) = 14',
  '9     sendto(25, [{nlmsg_len=20, nlmsg_type=RTM_GETLINK, nlmsg_flags=NLM_F_REQUEST|NLM_F_DUMP, nlmsg_seq=1, nlmsg_pid=0}, {ifi_family=AF_UNSPEC}], 20, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 20',
  '11    connect(9, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("104.18.0.1")}, 16 <unfinished ...>',
  '11    <... connect resumed>) = -1 ENETUNREACH (Network is unreachable)',
  '5     --- SIGCHLD {si_signo=SIGCHLD} ---',
].join('\n');

describe('readNetworkTrace', () => {
  it('lists every address a traced process tried, with the result', () => {
    const attempts = readNetworkTrace(LOG);
    expect(attempts.map((a) => `${a.call} ${a.family} ${a.address}`)).toEqual([
      'connect inet 127.0.0.1:8787',
      'connect unix /var/run/nscd/socket',
      'sendto inet 10.0.0.2:53',
      'connect inet6 [2606:4700::1]:443',
      'sendto netlink AF_NETLINK',
      'connect inet 104.18.0.1:443',
    ]);
    expect(attempts[2]!.result).toContain('ENETUNREACH');
  });

  it('picks out everything but the proxy (unix and netlink sockets are local)', () => {
    expect(foreignAttempts(readNetworkTrace(LOG), '127.0.0.1:8787').map((a) => a.address)).toEqual(['10.0.0.2:53', '[2606:4700::1]:443', '104.18.0.1:443']);
  });
});
