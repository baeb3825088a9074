// Runs inside the sandbox: listens on 127.0.0.1:<port> (the sandbox's own loopback) and relays
// every connection to a unix socket bound in from the host (the model proxy), then runs the
// command. The sandbox has no other network.
// usage: node model-bridge.mjs <port> <socket> -- <command...>
import net from 'node:net';
import { spawn } from 'node:child_process';

const [port, socket, dashes, ...command] = process.argv.slice(2);
if (dashes !== '--' || command.length === 0) {
  process.stderr.write('usage: model-bridge.mjs <port> <socket> -- <command...>\n');
  process.exit(125);
}
const server = net.createServer((client) => {
  const upstream = net.connect(socket);
  client.pipe(upstream).pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
server.on('error', (error) => {
  process.stderr.write(`model bridge: ${error.message}\n`);
  process.exit(125);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  child.on('error', (error) => {
    process.stderr.write(`model bridge: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)));
});
