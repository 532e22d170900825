/**
 * How a bubblewrap sandbox with a host allow-list reaches the network: it keeps `--unshare-net` (its own
 * network namespace, whose loopback bubblewrap brings up, and nothing else), and the host's allow-list
 * proxy is a Unix socket bound into it. A small bridge started inside listens on `127.0.0.1:PORT` in the
 * sandbox's namespace and forwards each connection to that socket; HTTP_PROXY and friends point there.
 * The command starts only once the bridge listens; if the bridge does not come up the command still runs,
 * with no network at all (it never had direct network), and says so on stderr.
 */

/** The bridge's port on the sandbox's own loopback (a private namespace: no clash with the host). */
export const SANDBOX_PROXY_PORT = 48131;

/** Seconds the command waits for the bridge before it runs without network. */
export const BRIDGE_WAIT_SECONDS = 10;

/** Printed by the launcher inside single quotes: no quote characters in it. */
export const BRIDGE_FAILED_MESSAGE =
  "toolgate: the sandbox network bridge did not start: this command has no network (setting toolgate.sandbox.network)";

export interface NetworkBridge {
  /** The allow-list proxy's Unix socket on the host. */
  readonly hostSocket: string;
  /** The interpreter that runs the bridge inside: Perl where the host has it (starts in milliseconds), else Node. */
  readonly interpreter: string;
  /** The bridge program for that interpreter, passed with `-e` (both take `-e CODE ARGS...`). */
  readonly source: string;
  /**
   * The program listens, then replaces itself with the command (Perl, Python: no launcher, no wait). Otherwise
   * the shell launcher below starts it and waits for its `ready` line (Node cannot replace itself).
   */
  readonly execs: boolean;
  /** Interpreter switches before the program (Python: `-I -S -B`, so no variable, site file or cache counts). */
  readonly flags?: readonly string[];
  /** The switch that takes the program text: `-e` (Perl, Node, the default) or `-c` (Python). */
  readonly codeFlag?: "-e" | "-c";
  /**
   * A bridge that execs: the variable its interpreter reads or changes at start-up (Perl: PERL5OPT; Python:
   * LC_CTYPE, which its locale coercion rewrites). The caller removes it from the environment and passes its
   * value (SAVED below); the bridge puts it back, exactly, before it runs the command. Default PERL5OPT.
   */
  readonly saves?: string;
}

/** The variable a bridge that execs saves and restores for the command (see `NetworkBridge.saves`). */
export function savedVariable(bridge: NetworkBridge): string {
  return bridge.saves ?? "PERL5OPT";
}

/** Where the socket appears inside: in a private scratch directory (so the bind creates nothing on the host). */
export function bridgeSocketTarget(privateDirs: readonly string[]): string | undefined {
  const dir = privateDirs.includes("/run") ? "/run" : privateDirs.includes("/tmp") ? "/tmp" : undefined;
  return dir === undefined ? undefined : `${dir}/toolgate-proxy.sock`;
}

/** The bind that makes the proxy's socket reachable inside; must follow the private scratch mounts. */
export function bridgeBindArgs(bridge: NetworkBridge, target: string): string[] {
  return ["--ro-bind", bridge.hostSocket, target];
}

/**
 * Starts the bridge detached (reparented to the sandbox's init, so the command never waits for it), waits for
 * its `ready` line, then replaces itself with the command. Positional: interpreter, source, socket, port,
 * command... The interpreters' start-up variables are cleared for the bridge alone (a workspace's
 * `NODE_OPTIONS=--require` or `PERL5OPT` must not break it); ELECTRON_RUN_AS_NODE makes an editor's Electron
 * binary behave as Node. Nothing it sets reaches the command.
 */
const LAUNCHER = [
  'n="$1" s="$2" k="$3" p="$4"; shift 4',
  'exec 3< <( (NODE_OPTIONS= PERL5OPT= PERL5LIB= PERLLIB= ELECTRON_RUN_AS_NODE=1 exec "$n" -e "$s" "$k" "$p" </dev/null 2>/dev/null &) )',
  `r=; read -r -t ${BRIDGE_WAIT_SECONDS} r <&3; exec 3<&-`,
  `[ "$r" = ready ] || printf '%s\\n' '${BRIDGE_FAILED_MESSAGE}' >&2`,
  "unset n s k p r",
  'exec "$@"',
].join("\n");

/**
 * The program bubblewrap starts (after `--`), then the command's own file and arguments. A bridge that execs
 * gets `FLAGS... -e|-c SOURCE SOCKET PORT SAVED FILE ARGS...`, where SAVED is the command's value of the
 * bridge's saved variable (`=value`, or empty when unset; see `NetworkBridge.saves`): the caller removes it from
 * the environment so a workspace's switches cannot stop the bridge from starting, and the bridge puts it back
 * before it runs the command.
 */
export function bridgeCommand(
  bridge: NetworkBridge,
  target: string,
  file: string,
  args: readonly string[],
  saved?: string,
): string[] {
  if (bridge.execs)
    return [
      bridge.interpreter,
      ...(bridge.flags ?? []),
      bridge.codeFlag ?? "-e",
      bridge.source,
      target,
      String(SANDBOX_PROXY_PORT),
      saved === undefined ? "" : `=${saved}`,
      file,
      ...args,
    ];
  return [
    "/bin/bash",
    "--noprofile",
    "--norc",
    "-c",
    LAUNCHER,
    "toolgate-net",
    bridge.interpreter,
    bridge.source,
    target,
    String(SANDBOX_PROXY_PORT),
    file,
    ...args,
  ];
}
