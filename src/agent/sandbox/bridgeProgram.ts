/**
 * The bridge that runs inside a bubblewrap sandbox (see src/core/sandbox/networkBridge.ts): listens on
 * `127.0.0.1:PORT` in the sandbox's own network namespace and forwards every connection, byte for byte, to
 * the host's allow-list proxy through its Unix socket. It decides nothing: the proxy does. Run with
 * `node -e SOURCE SOCKET PORT`; prints `ready` once it listens, then closes stdout. Plain JavaScript in a
 * string, so it needs no file on disk and survives bundling unchanged.
 */
export const BRIDGE_SOURCE = `"use strict";
const net = require("net");
const [sock, port] = process.argv.slice(-2);
const server = net.createServer({ allowHalfOpen: true }, (c) => {
  const u = net.connect({ path: sock, allowHalfOpen: true });
  const drop = () => { c.destroy(); u.destroy(); };
  c.on("error", drop);
  u.on("error", drop);
  c.pipe(u);
  u.pipe(c);
});
server.on("error", () => process.exit(1));
server.listen(Number(port), "127.0.0.1", 511, () => {
  process.stdout.write("ready\\n", () => process.stdout.destroy());
});
`;
