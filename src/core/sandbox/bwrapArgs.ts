import { bridgeBindArgs, type NetworkBridge } from "./networkBridge";
import { assertAbsolute, mountOrder, policyPaths, tmpfsHomes, type SandboxPolicy } from "./sandboxPolicy";

export interface BwrapOptions {
  /** An empty read-only file and directory outside every root: what hidden paths are replaced by. */
  readonly emptyFile: string;
  readonly emptyDir: string;
  /** bubblewrap ≥ 0.8 can forbid nested user namespaces; the probe says whether this one can. */
  readonly disableUserns: boolean;
  readonly cwd: string;
  /** A host allow-list: the proxy's socket, bound at `target` after every other mount (see networkBridge.ts). */
  readonly bridge?: { readonly bridge: NetworkBridge; readonly target: string };
}

/**
 * The namespaces, session and capability flags and the read-only root every sandboxed command starts from; the
 * availability probe starts bubblewrap with exactly these, so it fails exactly when a real start would.
 */
export function baseBwrapArgs(disableUserns: boolean): string[] {
  return [
    "--unshare-user",
    ...(disableUserns ? ["--disable-userns"] : []),
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--unshare-net",
    "--new-session",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
  ];
}

/**
 * The bubblewrap arguments before the command (`bwrap ARGS -- FILE ARGS...`). Namespaces: a user namespace
 * with every capability dropped (a root caller keeps none either), nested user namespaces refused where
 * bubblewrap can, own PID/IPC/UTS/cgroup namespaces, an own network namespace with only a loopback (a host
 * list reaches the proxy through its socket, never the host's network), a new session (no TIOCSTI into the
 * caller's terminal), and the sandbox dies with its parent.
 */
export function bwrapArgs(policy: SandboxPolicy, o: BwrapOptions): string[] {
  const all = [
    ...policyPaths(policy),
    o.emptyFile,
    o.emptyDir,
    o.cwd,
    ...(o.bridge ? [o.bridge.bridge.hostSocket, o.bridge.target] : []),
  ];
  assertAbsolute(all);
  const args = baseBwrapArgs(o.disableUserns);
  for (const op of mountOrder(policy)) {
    switch (op.kind) {
      case "private":
        args.push("--tmpfs", op.path);
        break;
      case "task-tmp":
        args.push("--bind", policy.taskTmp!, op.path);
        break;
      case "writable":
        args.push("--bind", op.path, op.path);
        break;
      case "read-only":
        // -try: a path that vanished since the scan is skipped instead of failing the start.
        args.push("--ro-bind-try", op.path, op.path);
        break;
      case "hidden-file":
        args.push("--ro-bind", o.emptyFile, op.path);
        break;
      case "hidden-dir":
        args.push("--ro-bind", o.emptyDir, op.path);
        break;
    }
  }
  // Last: inside the private scratch directory, where no later mount can cover it.
  if (o.bridge) args.push(...bridgeBindArgs(o.bridge.bridge, o.bridge.target));
  // The empty homes become read-only only now: every mount point in them had to be created first. Not
  // recursive, so the binds inside (roots, caches) keep their own mode.
  for (const h of tmpfsHomes(policy)) args.push("--remount-ro", h);
  args.push("--chdir", o.cwd);
  return args;
}
