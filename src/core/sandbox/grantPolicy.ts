import * as nodePath from "node:path";
import type { SandboxGrant } from "./grant";
import { isWithin, mountOrder, SANDBOX_TMP, type SandboxPolicy } from "./sandboxPolicy";

/**
 * What a task's sandbox is built from besides the grant: fixed for the task (recomputed only when the files
 * they describe change), the same for every command of it. All real, absolute, normalised paths.
 */
export interface TaskSandboxInputs {
  readonly roots: readonly string[];
  /** The workspace scan: protected paths (read-only) and ignored entries (hidden). */
  readonly scan: {
    readonly readOnly: readonly string[];
    readonly hiddenFiles: readonly string[];
    readonly hiddenDirs: readonly string[];
  };
  /** Credential stores and agent sockets (hidden last). */
  readonly secrets: { readonly files: readonly string[]; readonly dirs: readonly string[] };
  /** Existing scratch directories to replace with an empty tmpfs (`/tmp`, `/run`). */
  readonly privateDirs: readonly string[];
  /** The task's own `/tmp` on the host (kept across the task's commands); absent: an empty tmpfs per command. */
  readonly taskTmp?: string;
  /** The person's home, emptied (absent, or `/`: left as the root shows it, read-only). */
  readonly home?: string;
  /** Directories holding other users' homes (`/home`), emptied too. */
  readonly otherHomes: readonly string[];
  /** Toolchain roots, `~/.gitconfig`, `~/.config/git`, the interpreter's folder: read-only in the home. */
  readonly toolchains: readonly string[];
  /** Toolgate's package-manager cache folders: writable under `workspace-write`, read-only otherwise. */
  readonly caches: readonly string[];
}

/**
 * Mounts one sandbox start may make in all (bubblewrap re-reads the mount table per mount, so start-up grows
 * with the square of this): the workspace scan's 100 plus room for the home's binds and the fixed ones.
 */
export const TOTAL_MOUNT_LIMIT = 140;

export class TooManyMountsError extends Error {}

/**
 * THE function from a grant to the sandbox (DESIGN, "The sandbox enforces the verdict"): the grant is its only
 * per-call input, so what a command may do is what its decision said and nothing a later step adds.
 * - both grants: `/` read-only (bwrapArgs' base), the home and other users' homes empty and read-only but
 *   for the toolchain binds, credential stores hidden, ignored files hidden, the task's `/tmp` writable;
 * - `read-only`: the workspace roots bound read-only, the caches read-only;
 * - `workspace-write`: the roots writable except their protected paths, the caches writable.
 * - an approved outside read (`grant.readPaths`): bound read-only, for this call's policy only.
 * The network is never in the policy: a grant's hosts reach only the allow-list proxy (see sandboxedSpawn).
 */
export function policyForGrant(grant: SandboxGrant, t: TaskSandboxInputs): SandboxPolicy {
  const write = grant.kind === "workspace-write";
  // A root that is the home (or holds it) is the workspace: it is bound as the grant says, not emptied —
  // and emptying it would make the final `--remount-ro` land on the root's own bind.
  const rootHolds = (dir: string) => t.roots.some((r) => isWithin(dir, r));
  const candidate = t.home !== undefined && t.home !== "/" && nodePath.posix.isAbsolute(t.home) ? t.home : undefined;
  const home = candidate !== undefined && !rootHolds(candidate) ? candidate : undefined;
  const otherHomes = t.otherHomes.filter(
    (h) => h !== "/" && h !== candidate && !(candidate !== undefined && isWithin(h, candidate)) && !rootHolds(h),
  );
  const emptied = [...otherHomes, ...(home !== undefined ? [home] : [])];
  // Outside the emptied homes the read-only root already shows a toolchain: no bind needed.
  const toolchains = t.toolchains.filter((p) => emptied.some((h) => p !== h && isWithin(p, h)));
  const reads = approvedReads(grant, t, emptied);
  const policy: SandboxPolicy = {
    writableRoots: write ? t.roots : [],
    readOnlyRoots: write ? [] : t.roots,
    readOnly: t.scan.readOnly,
    hiddenFiles: t.scan.hiddenFiles,
    hiddenDirs: t.scan.hiddenDirs,
    privateDirs: t.taskTmp !== undefined ? t.privateDirs.filter((d) => d !== SANDBOX_TMP) : t.privateDirs,
    secretFiles: t.secrets.files,
    secretDirs: t.secrets.dirs,
    network: "off",
    ...(home !== undefined ? { home } : {}),
    otherHomes,
    homeBinds: [...(write ? toolchains : [...toolchains, ...t.caches]), ...reads],
    writableBinds: write ? t.caches : [],
    ...(t.taskTmp !== undefined ? { taskTmp: t.taskTmp } : {}),
  };
  const mounts = mountOrder(policy).length;
  if (mounts > TOTAL_MOUNT_LIMIT)
    throw new TooManyMountsError(
      `the sandbox would need ${mounts} mounts (at most ${TOTAL_MOUNT_LIMIT}): ignore whole directories rather than many single files, or shorten PATH`,
    );
  return policy;
}

/**
 * The grant's approved outside reads that need a bind: those inside an emptied home (elsewhere the read-only
 * root already shows them, or the sandbox keeps its own private `/tmp`/`/run`). Never a credential store or an
 * ignored entry, nor anything inside one — the hidden list wins — and never a home itself or a folder holding
 * one: the approval was of one read, not of the whole home.
 */
function approvedReads(grant: SandboxGrant, t: TaskSandboxInputs, emptied: readonly string[]): string[] {
  const hiddenDirs = [...t.secrets.dirs, ...t.scan.hiddenDirs];
  const hiddenFiles = [...t.secrets.files, ...t.scan.hiddenFiles];
  return (grant.readPaths ?? []).filter(
    (p) =>
      nodePath.posix.isAbsolute(p) &&
      nodePath.posix.normalize(p) === p &&
      !p.includes("\0") &&
      emptied.some((h) => p !== h && isWithin(p, h)) &&
      !emptied.some((h) => isWithin(h, p)) &&
      !hiddenDirs.some((d) => isWithin(p, d)) &&
      !hiddenFiles.includes(p),
  );
}
