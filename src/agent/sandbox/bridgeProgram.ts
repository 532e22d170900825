import { accessSync, constants } from "node:fs";
import { BRIDGE_FAILED_MESSAGE } from "../../core/sandbox/networkBridge";

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
 * The same bridge in Perl with builtins only (no module is loaded: start-up stays at a few milliseconds), and
 * it needs no launcher: it listens, leaves a detached relay behind (reparented to the sandbox's init, stdio
 * on /dev/null, so nothing waits for it or holds the command's pipes), restores PERL5OPT and replaces itself
 * with the command. When the listener cannot be set up it says so and runs the command with no network.
 * Signal dispositions are changed in the relay only (an ignored signal would survive into the command).
 * Linux constants: AF_UNIX 1, AF_INET 2, SOCK_STREAM 1, SOL_SOCKET 1, SO_REUSEADDR 2.
 */
export const PERL_BRIDGE_SOURCE = `my ($path, $port, $opt) = splice(@ARGV, 0, 3);
my $ok = 0;
my $l;
if (socket($l, 2, 1, 0) && setsockopt($l, 1, 2, pack("i", 1))
    && bind($l, pack("S n C4 x8", 2, $port, 127, 0, 0, 1)) && listen($l, 511)) {
  my $pid = fork();
  if (defined $pid && $pid == 0) {
    my $g = fork();
    exit(defined $g ? 0 : 1) if !defined $g || $g;
    open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">", "/dev/null");
    $SIG{CHLD} = "IGNORE";
    $SIG{PIPE} = "IGNORE";
    while (1) {
      accept(my $c, $l) or exit 1;
      my $r = fork();
      if (!defined $r || $r) { close($c); next; }
      close($l);
      socket(my $u, 1, 1, 0) or exit 1;
      connect($u, pack("S Z108", 1, $path)) or exit 1;
      my @pairs = ([$c, $u], [$u, $c]);
      my @open = (1, 1);
      while ($open[0] || $open[1]) {
        my $set = "";
        for my $i (0, 1) { vec($set, fileno($pairs[$i][0]), 1) = 1 if $open[$i]; }
        next if select($set, undef, undef, undef) <= 0;
        for my $i (0, 1) {
          next unless $open[$i] && vec($set, fileno($pairs[$i][0]), 1);
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
  }
  if (defined $pid) { waitpid($pid, 0); $ok = $? == 0; }
  close($l);
}
print STDERR "${BRIDGE_FAILED_MESSAGE}\n" unless $ok;
if ($opt ne "") { $ENV{PERL5OPT} = substr($opt, 1); } else { delete $ENV{PERL5OPT}; }
exec { $ARGV[0] } @ARGV;
print STDERR "toolgate: cannot run $ARGV[0]: $!\n";
exit 127;
`;

export interface BridgeProgram {
  readonly interpreter: string;
  readonly source: string;
  readonly execs: boolean;
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
    ? { interpreter: PERL, source: PERL_BRIDGE_SOURCE, execs: true }
    : { interpreter: process.execPath, source: BRIDGE_SOURCE, execs: false };
}
