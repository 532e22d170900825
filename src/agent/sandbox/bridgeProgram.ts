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

/**
 * The same bridge in Python, for hosts with Python but no Perl (Fedora and RHEL images): like the Perl one it
 * listens, leaves a detached relay behind and replaces itself with the command, so the command waits only for
 * Python's start-up (about 20 ms of CPU against Node's 80–90 here). Run with `-I -S -B`: no PYTHON* variable,
 * site file, user site or bytecode write counts, so a workspace cannot change what it does. Python changes
 * three things at start-up that would reach the command, and the bridge undoes each before `execvpe`: SIGPIPE
 * and SIGXFSZ ignored (set back to default), and LC_CTYPE rewritten by its locale coercion (the caller removes
 * it and passes its value, restored exactly). Standard library only: socket, select, os, signal.
 */
export const PYTHON_BRIDGE_SOURCE = `import os, select, signal, socket, sys
path, port, saved, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]

def pump(c, u):
    ends = {c.fileno(): (c, u), u.fileno(): (u, c)}
    live = set(ends)
    while live:
        for fd in select.select(list(live), [], [])[0]:
            src, dst = ends[fd]
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                live.discard(fd)
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                continue
            dst.sendall(data)

def relay(l):
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    while True:
        c = l.accept()[0]
        if os.fork():
            c.close()
            continue
        try:
            l.close()
            u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            u.connect(path)
            pump(c, u)
        finally:
            os._exit(0)

ok = False
try:
    l = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    l.bind(("127.0.0.1", port))
    l.listen(511)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            if os.fork() == 0:
                relay(l)
            code = 0
        finally:
            os._exit(code)
    ok = os.waitpid(pid, 0)[1] == 0
    l.close()
except OSError:
    pass
if not ok:
    sys.stderr.write(${JSON.stringify(BRIDGE_FAILED_MESSAGE + "\n")})
    sys.stderr.flush()
env = dict(os.environ)
env.pop("LC_CTYPE", None)
if saved:
    env["LC_CTYPE"] = saved[1:]
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
try:
    os.execvpe(cmd[0], cmd, env)
except OSError as e:
    sys.stderr.write("toolgate: cannot run %s: %s\\n" % (cmd[0], e.strerror))
os._exit(127)
`;

export interface BridgeProgram {
  readonly interpreter: string;
  readonly source: string;
  readonly execs: boolean;
  readonly flags?: readonly string[];
  readonly codeFlag?: "-e" | "-c";
  readonly saves?: string;
}

const PERL = "/usr/bin/perl";
const PYTHON = "/usr/bin/python3";
let present: { perl: boolean; python: boolean } | undefined;

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Python bridge as `bridgeCommand` runs it. */
export const PYTHON_BRIDGE: BridgeProgram = {
  interpreter: PYTHON,
  source: PYTHON_BRIDGE_SOURCE,
  execs: true,
  flags: ["-I", "-S", "-B"],
  codeFlag: "-c",
  saves: "LC_CTYPE",
};

/**
 * The fastest bridge the host has (checked once per process): Perl (a few milliseconds), else Python (tens),
 * else the runner's own Node (its start-up, 80–90 ms of CPU here, is the whole cost: no switch shortens it).
 */
export function defaultBridgeProgram(): BridgeProgram {
  present ??= { perl: executable(PERL), python: executable(PYTHON) };
  if (present.perl) return { interpreter: PERL, source: PERL_BRIDGE_SOURCE, execs: true };
  if (present.python) return PYTHON_BRIDGE;
  return { interpreter: process.execPath, source: BRIDGE_SOURCE, execs: false };
}
