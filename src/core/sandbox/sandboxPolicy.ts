import * as nodePath from "node:path";

/**
 * What a sandboxed command may see and touch, as absolute real paths (symlinks already resolved, so a mount
 * lands where the kernel will look). Built once per task by the workspace scan; both mechanisms (bubblewrap,
 * Seatbelt) are generated from this one object.
 */
export interface SandboxPolicy {
  /** Workspace roots: read-write. */
  readonly writableRoots: readonly string[];
  /** Existing protected paths inside the roots: read-only (each git directory's config, hooks/, info/; .vscode; ...). */
  readonly readOnly: readonly string[];
  /** Ignored files and credential files: replaced by an empty read-only file. */
  readonly hiddenFiles: readonly string[];
  /** Ignored directories and credential directories: replaced by an empty read-only directory. */
  readonly hiddenDirs: readonly string[];
  /** Private, empty, writable scratch directories (`/tmp`; `/run` with its sockets). */
  readonly privateDirs: readonly string[];
  /** Credential stores in `$HOME` and agent sockets: hidden after everything else, so nothing re-exposes them. */
  readonly secretFiles: readonly string[];
  readonly secretDirs: readonly string[];
  readonly network: "off";
  /** Workspace roots under a `read-only` grant: bound read-only (`writableRoots` is then empty). */
  readonly readOnlyRoots?: readonly string[];
  /**
   * The home directory: an empty tmpfs (nothing of the person's home shows but `homeBinds`), made read-only
   * after every mount into it. Other users' homes (`otherHomes`, e.g. `/home`) the same.
   */
  readonly home?: string;
  readonly otherHomes?: readonly string[];
  /** Bound read-only (toolchain roots, `~/.gitconfig`, `~/.config/git`, the interpreter's folder). */
  readonly homeBinds?: readonly string[];
  /** Bound read-write besides the roots (Toolgate's package caches under `workspace-write`). */
  readonly writableBinds?: readonly string[];
  /** The task's private `/tmp`: this host directory, bound writable at `/tmp` (`/tmp` is then not in `privateDirs`). */
  readonly taskTmp?: string;
}

/** Where the task's private `/tmp` appears inside. */
export const SANDBOX_TMP = "/tmp";

export type MountKind = "private" | "task-tmp" | "writable" | "read-only" | "hidden-file" | "hidden-dir";

export interface MountOp {
  readonly kind: MountKind;
  readonly path: string;
}

const PRIORITY: Record<MountKind, number> = {
  private: 0,
  "task-tmp": 0,
  writable: 1,
  "read-only": 2,
  "hidden-file": 3,
  "hidden-dir": 3,
};

const depth = (p: string): number => (p === "/" ? 0 : p.split("/").length - 1);

/** Whether `p` is `dir` or lies below it (by segments). */
export function isWithin(p: string, dir: string): boolean {
  if (dir === "/") return true;
  return p === dir || p.startsWith(dir.endsWith("/") ? dir : dir + "/");
}

/**
 * The mounts in the order they must be made. A later mount hides an earlier one at or below its path, so:
 * a parent is always mounted before its children (by depth), and at one path the private scratch comes first,
 * then the workspace, then read-only re-binds, then hiding — so a workspace under `/tmp` survives the private
 * `/tmp`, and a protected path inside a root stays read-only. Credential stores come last of all: no workspace
 * bind can re-expose them. Entries below a hidden directory are dropped: their source would re-expose the
 * real content inside the empty directory.
 */
export function mountOrder(policy: SandboxPolicy): MountOp[] {
  const ops: MountOp[] = [
    ...policy.privateDirs.map((path) => ({ kind: "private" as const, path })),
    ...tmpfsHomes(policy).map((path) => ({ kind: "private" as const, path })),
    ...(policy.taskTmp !== undefined ? [{ kind: "task-tmp" as const, path: SANDBOX_TMP }] : []),
    ...policy.writableRoots.map((path) => ({ kind: "writable" as const, path })),
    ...(policy.writableBinds ?? []).map((path) => ({ kind: "writable" as const, path })),
    ...(policy.readOnlyRoots ?? []).map((path) => ({ kind: "read-only" as const, path })),
    ...(policy.homeBinds ?? []).map((path) => ({ kind: "read-only" as const, path })),
    ...policy.readOnly.map((path) => ({ kind: "read-only" as const, path })),
    ...policy.hiddenFiles.map((path) => ({ kind: "hidden-file" as const, path })),
    ...policy.hiddenDirs.map((path) => ({ kind: "hidden-dir" as const, path })),
  ];
  const unique = new Map<string, MountOp>();
  for (const op of ops) {
    const key = `${op.kind}\0${op.path}`;
    if (!unique.has(key)) unique.set(key, op);
  }
  const sorted = [...unique.values()].sort(
    (a, b) => depth(a.path) - depth(b.path) || PRIORITY[a.kind] - PRIORITY[b.kind] || a.path.localeCompare(b.path),
  );
  const hidden: string[] = [];
  const kept: MountOp[] = [];
  for (const op of sorted) {
    if (
      op.kind !== "private" &&
      op.kind !== "task-tmp" &&
      op.kind !== "writable" &&
      hidden.some((h) => h !== op.path && isWithin(op.path, h))
    )
      continue;
    kept.push(op);
    if (op.kind === "hidden-dir") hidden.push(op.path);
  }
  const secrets: MountOp[] = [
    ...policy.secretFiles.map((path) => ({ kind: "hidden-file" as const, path })),
    ...policy.secretDirs.map((path) => ({ kind: "hidden-dir" as const, path })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
  const homes = tmpfsHomes(policy);
  const shown = kept.filter((o) => o.kind === "writable" || o.kind === "read-only").map((o) => o.path);
  for (const op of secrets) {
    // Inside an already hidden directory a secret is hidden too, and its mount point could not be created.
    if (hidden.some((h) => h !== op.path && isWithin(op.path, h))) continue;
    // Inside an empty home it is not there at all, unless a bind below the home brings it back.
    if (homes.some((h) => isWithin(op.path, h)) && !shown.some((b) => isWithin(op.path, b))) continue;
    kept.push(op);
    if (op.kind === "hidden-dir") hidden.push(op.path);
  }
  return kept;
}

/** The homes replaced by an empty tmpfs, remounted read-only once everything is mounted into them. */
export function tmpfsHomes(policy: SandboxPolicy): string[] {
  return [...(policy.otherHomes ?? []), ...(policy.home !== undefined ? [policy.home] : [])];
}

/** Every path a policy mounts at or reads from, for the absolute-path check. */
export function policyPaths(policy: SandboxPolicy): string[] {
  return [
    ...policy.writableRoots,
    ...policy.readOnly,
    ...policy.hiddenFiles,
    ...policy.hiddenDirs,
    ...policy.privateDirs,
    ...policy.secretFiles,
    ...policy.secretDirs,
    ...(policy.readOnlyRoots ?? []),
    ...tmpfsHomes(policy),
    ...(policy.homeBinds ?? []),
    ...(policy.writableBinds ?? []),
    ...(policy.taskTmp !== undefined ? [policy.taskTmp] : []),
  ];
}

/** Paths a policy is built from must be absolute and normalised; anything else is a bug upstream. */
export function assertAbsolute(paths: readonly string[]): void {
  for (const p of paths)
    if (!nodePath.posix.isAbsolute(p) || nodePath.posix.normalize(p) !== p || p.includes("\0"))
      throw new Error(`sandbox policy: not an absolute normalised path: ${JSON.stringify(p)}`);
}
