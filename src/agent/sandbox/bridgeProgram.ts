import { accessSync, constants } from "node:fs";

/**
 * The bridge that runs inside a bubblewrap sandbox (see src/core/sandbox/networkBridge.ts): listens on
 * `127.0.0.1:PORT` in the sandbox's own network namespace and forwards every connection, byte for byte, to
 * the host's allow-list proxy through its Unix socket. It decides nothing: the proxy does. Run as
 * `INTERPRETER -e SOURCE SOCKET PORT`; prints `ready` once it listens, then closes stdout. Programs in strings,
 * so they need no file on disk and survive bundling unchanged. The command waits for `ready`, so the
 * interpreter's start-up is paid by every sandboxed command when the setting lists hosts: Perl (essential on
 * Debian and Ubuntu, present on most Linux systems) starts in a few milliseconds, Node in tens to hundreds.
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

/**
 * The same bridge in Perl with builtins only (no module is loaded: start-up stays at a few milliseconds).
 * Linux constants: AF_UNIX 1, AF_INET 2, SOCK_STREAM 1, SOL_SOCKET 1, SO_REUSEADDR 2. One forked child per
 * connection relays both directions with select(), passing each end-of-stream on as a half-close.
 */
export const PERL_BRIDGE_SOURCE = `my ($path, $port) = @ARGV[-2, -1];
socket(my $l, 2, 1, 0) or exit 1;
setsockopt($l, 1, 2, pack("i", 1));
bind($l, pack("S n C4 x8", 2, $port, 127, 0, 0, 1)) or exit 1;
listen($l, 511) or exit 1;
$SIG{CHLD} = "IGNORE";
$SIG{PIPE} = "IGNORE";
syswrite(STDOUT, "ready\n");
close(STDOUT);
while (1) {
  accept(my $c, $l) or exit 1;
  my $pid = fork();
  if (!defined $pid || $pid) { close($c); next; }
  close($l);
  socket(my $u, 1, 1, 0) or exit 1;
  connect($u, pack("S Z108", 1, $path)) or exit 1;
  my @pairs = ([$c, $u], [$u, $c]);
  my @open = (1, 1);
  while ($open[0] || $open[1]) {
    my $r = "";
    for my $i (0, 1) { vec($r, fileno($pairs[$i][0]), 1) = 1 if $open[$i]; }
    next if select($r, undef, undef, undef) <= 0;
    for my $i (0, 1) {
      next unless $open[$i] && vec($r, fileno($pairs[$i][0]), 1);
      my ($from, $to) = @{$pairs[$i]};
      my $n = sysread($from, my $buf, 65536);
      if (!$n) { $open[$i] = 0; shutdown($to, 1); next; }
      my $off = 0;
      while ($off < $n) {
        my $w = syswrite($to, $buf, $n - $off, $off);
        exit 0 unless $w;
        $off += $w;
      }
    }
  }
  exit 0;
}
`;

export interface BridgeProgram {
  readonly interpreter: string;
  readonly source: string;
}

const PERL = "/usr/bin/perl";
let perlPresent: boolean | undefined;

/** `perl` when the host has it (checked once per process), else the runner's own Node. */
export function defaultBridgeProgram(): BridgeProgram {
  if (perlPresent === undefined) {
    try {
      accessSync(PERL, constants.X_OK);
      perlPresent = true;
    } catch {
      perlPresent = false;
    }
  }
  return perlPresent
    ? { interpreter: PERL, source: PERL_BRIDGE_SOURCE }
    : { interpreter: process.execPath, source: BRIDGE_SOURCE };
}
